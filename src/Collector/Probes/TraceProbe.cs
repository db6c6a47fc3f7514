using Dapper;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>The default trace: where it writes, then the growth events since this instance's watermark.</summary>
internal static class TraceProbe
{
    public static async Task<(DefaultTraceState? Trace, IReadOnlyList<GrowthEventInfo> Events)> RunAsync(
        ProbeContext context, GrowthWatermarks watermarks, int? utcOffsetMinutes)
    {
        if (context.SkipOnAzurePaas(ProbeNames.DefaultTrace)) return (null, []);
        // (Read: false) when the probe failed; (Read: true, Path: null) when the default trace is disabled.
        var (read, path) = await context.RunAsync<(bool Read, string? Path)>(ProbeNames.DefaultTrace, (false, null), async () =>
        {
            var current = await context.Connection.QueryFirstOrDefaultAsync<string>(context.Command(SqlScripts.DefaultTrace));
            context.Add(current is null
                ? new ProbeOutcome(ProbeNames.DefaultTrace, OutcomeClass.TraceDisabled,
                    "The default trace is disabled (sp_configure 'default trace enabled' = 0): growth events and their " +
                    "timings cannot be read. Enable it with sp_configure 'show advanced options', 1; RECONFIGURE; " +
                    "sp_configure 'default trace enabled', 1; RECONFIGURE.")
                : new ProbeOutcome(ProbeNames.DefaultTrace, OutcomeClass.Ok));
            return (true, current);
        });
        if (!read) return (null, []);
        if (path is null) return (new DefaultTraceState(false, null, 0), []);

        var since = watermarks.Since(context.InstanceId);
        DateTimeOffset? oldest = null;
        var events = await context.RunAsync<IReadOnlyList<GrowthEventInfo>>(ProbeNames.GrowthEvents, [], async () =>
        {
            var oldestLocal = await context.Connection.QueryFirstOrDefaultAsync<DateTime?>(
                context.Command(SqlScripts.TraceWindow, ProbeContext.Parameters(("path", BaseTraceFile(path)))));
            oldest = oldestLocal is { } local ? ServerLocalToUtc(local, utcOffsetMinutes ?? 0) : null;
            var rows = await ReadGrowthEventsAsync(context, watermarks.TraceFile(context.InstanceId), BaseTraceFile(path), since);
            watermarks.ReadFrom(context.InstanceId, path);
            context.Ok(ProbeNames.GrowthEvents, utcOffsetMinutes is null ? "Server clock unknown: times assumed to be UTC." : null);
            if (rows.Count > 0) watermarks.Advance(context.InstanceId, rows.Max(r => r.EndTime ?? r.StartTime));
            return rows.Select(r => ToEvent(r, utcOffsetMinutes ?? 0)).ToList();
        });
        return (new DefaultTraceState(true, path, events.Count) { OldestEventAt = oldest }, events);
    }

    /// <summary>
    /// The growth events since the watermark, from the file that was current at the last read on (fn_trace_gettable
    /// reads a named rollover file and every later one), or from the whole trace on the first read. A file that has
    /// aged out since (the trace rolled over more often than it keeps files) is an error there: the whole trace then.
    /// </summary>
    static async Task<List<TraceEventRow>> ReadGrowthEventsAsync(ProbeContext context, string? fromFile, string baseFile, DateTime since)
    {
        if (fromFile is not null)
        {
            try
            {
                return await QueryGrowthEventsAsync(context, fromFile, since);
            }
            catch (SqlException e) when (e.Number != -2 && e.Class < 20 && !FailureClassifier.IsPermissionFailure(e))
            {
                // [U] the error for a rollover file no longer on disk (19049 in the simulator): any error the server
                // answers reads all. A timeout, a broken connection or a refusal is the probe's failure, not retried.
            }
        }

        return await QueryGrowthEventsAsync(context, baseFile, since);
    }

    static async Task<List<TraceEventRow>> QueryGrowthEventsAsync(ProbeContext context, string file, DateTime since) =>
        (await context.Connection.QueryAsync<TraceEventRow>(
            context.Command(SqlScripts.GrowthEvents, ProbeContext.Parameters(("path", file), ("since", since))))).AsList();

    /// <summary>
    /// sys.traces names the current rollover file (…\log_123.trc); the base name log.trc in the same folder makes
    /// fn_trace_gettable read every rollover file still on disk. Linux paths use '/'.
    /// </summary>
    internal static string BaseTraceFile(string currentPath)
    {
        var separator = currentPath.LastIndexOfAny(['\\', '/']);
        return separator < 0 ? "log.trc" : currentPath[..(separator + 1)] + "log.trc";
    }

    static DateTimeOffset ServerLocalToUtc(DateTime local, int utcOffsetMinutes) =>
        new DateTimeOffset(DateTime.SpecifyKind(local, DateTimeKind.Unspecified), TimeSpan.FromMinutes(utcOffsetMinutes)).ToUniversalTime();

    static GrowthEventInfo ToEvent(TraceEventRow row, int utcOffsetMinutes)
    {
        return new GrowthEventInfo
        {
            EventClass = row.EventClass,
            DatabaseId = row.DatabaseID ?? 0,
            DatabaseName = row.DatabaseName ?? "",
            FileName = row.FileName ?? "",
            // [U] converted with the offset when polled: an event from before a daylight-saving change is an hour off
            // in UTC. Its identity is the local time the trace holds, which never changes.
            StartTime = ServerLocalToUtc(row.StartTime, utcOffsetMinutes),
            StartTimeLocal = DateTime.SpecifyKind(row.StartTime, DateTimeKind.Unspecified),
            EndTime = row.EndTime is { } end ? ServerLocalToUtc(end, utcOffsetMinutes) : null,
            DurationMicroseconds = row.Duration ?? 0,
            GrowthPages = row.IntegerData ?? 0,
        };
    }
}

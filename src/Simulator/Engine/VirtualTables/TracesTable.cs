using IfiDashboard.Simulator.Engine.Tracing;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.traces with the default trace as its only trace (reference section 3); no row when the default trace is off.
/// Needs ALTER TRACE. Azure SQL Database has no SQL Trace at all.
/// </summary>
internal sealed class TracesTable : VirtualTable
{
    private const int DefaultTraceId = 1;
    private const long MaxSizeMegabytes = 20;

    // The full column list in SQL Server's order, so SELECT * has the real shape. [U] nullability beyond the
    // documented types: the flags and id are modelled NOT NULL, everything that can be absent as nullable.
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("id", SqlType.Int, Nullable: false),
        new("status", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("path", 260),
        new("max_size", SqlType.BigInt),
        new("stop_time", SqlType.DateTime),
        new("max_files", SqlType.Int),
        new("is_rowset", SqlType.Bit, Nullable: false),
        new("is_rollover", SqlType.Bit, Nullable: false),
        new("is_shutdown", SqlType.Bit, Nullable: false),
        new("is_default", SqlType.Bit, Nullable: false),
        new("buffer_count", SqlType.Int),
        new("buffer_size", SqlType.Int),
        new("file_position", SqlType.BigInt),
        new("reader_spid", SqlType.Int),
        new("start_time", SqlType.DateTime),
        new("last_event_time", SqlType.DateTime),
        new("event_count", SqlType.BigInt),
        new("dropped_event_count", SqlType.Int),
    ];

    public override string Name => "traces";

    public override int ObjectId => -1007;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session) =>
        Permissions.HasAny(session, "ALTER TRACE") ? null : [SqlErrors.NoTracePermission("SYS.TRACES")];

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        if (session.Profile.EngineEdition == 8 || DefaultTraceFiles.For(session.Instance) is not { } trace)
        {
            yield break;
        }

        var instance = session.Instance;
        var last = trace.Files.SelectMany(f => f.Events).LastOrDefault();
        // Each modelled event stands for about 1 KB of trace file, enough to make the position move.
        yield return
        [
            DefaultTraceId, 1, trace.Current.Path, MaxSizeMegabytes, null, instance.DefaultTrace.MaxFiles,
            false, true, false, true, 2, 1024, trace.Current.Events.Count * 1024L, null,
            ServerClock.Local(instance, instance.LastStartupTime),
            last is null ? null : ServerClock.Local(instance, last.StartTime),
            (long)trace.TotalEvents, 0,
        ];
    }
}

using System.Globalization;
using Dapper;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>One connection a simulated instance saw the collector make, dated when the collector began it.</summary>
internal readonly record struct PollAttempt(string Instance, DateTimeOffset At, string Kind);

/// <summary>
/// "Every poll stored or retried": every connection the collector opened to a simulated instance must lie inside a poll
/// the store holds for that instance (started before it, finished after it), failed polls included with their
/// classified outcome. A poll the store was too busy to take is retried by the embedded collector and keeps its
/// times, so a retried poll still covers its attempts; a poll lost anywhere leaves its attempts uncovered.
/// Refused connections never reach the instance, so they are counted from the store (polls that could not connect).
/// </summary>
internal sealed class PollLedger(FleetSimulator fleet)
{
    // The store keeps times to the millisecond and the two clocks are the same machine's; a poll's own record is taken
    // just before its connection opens and just after it closes.
    static readonly TimeSpan Slack = TimeSpan.FromSeconds(1);

    readonly Dictionary<string, TranscriptEntry?> _lastSeen = new(StringComparer.OrdinalIgnoreCase);
    readonly List<PollAttempt> _attempts = [];

    public IReadOnlyList<PollAttempt> Attempts => _attempts;
    /// <summary>Samples in which an instance's bounded transcript had dropped entries not yet read: attempts may be missing.</summary>
    public int Overflows { get; private set; }

    /// <summary>Reads what each instance saw since the last sample. Call often enough that no transcript overflows.</summary>
    public void Sample()
    {
        foreach (var instance in fleet.Instances)
        {
            var entries = instance.Transcript.Entries;
            _lastSeen.TryGetValue(instance.Name, out var last);
            var start = 0;
            if (last is not null)
            {
                var index = IndexOf(entries, last);
                if (index < 0) Overflows++;
                start = index + 1;
            }
            for (var i = start; i < entries.Count; i++)
                if (AttemptOf(instance, entries[i]) is { } attempt) _attempts.Add(attempt);
            if (entries.Count > 0) _lastSeen[instance.Name] = entries[^1];
        }
    }

    static int IndexOf(IReadOnlyList<TranscriptEntry> entries, TranscriptEntry entry)
    {
        for (var i = entries.Count - 1; i >= 0; i--)
            if (ReferenceEquals(entries[i], entry)) return i;
        return -1;
    }

    /// <summary>
    /// A connection ends in exactly one of these: a login (good or refused), or, for a connection that never sent its
    /// login (a hang in PRELOGIN), the simulator's login timeout, which it reports that many seconds after the connect.
    /// </summary>
    static PollAttempt? AttemptOf(SimulatedInstance instance, TranscriptEntry entry) => entry.Kind switch
    {
        TranscriptKinds.Login or TranscriptKinds.LoginFailed => new PollAttempt(instance.Name, entry.At, entry.Kind),
        TranscriptKinds.LoginTimeout => new PollAttempt(instance.Name,
            entry.At - TimeSpan.FromSeconds(instance.Scenario.LoginTimeoutSeconds), entry.Kind),
        _ => null,
    };

    /// <summary>Attempts no stored poll of their instance covers, up to <paramref name="until"/>.</summary>
    public async Task<IReadOnlyList<PollAttempt>> UncoveredAsync(string store, DateTimeOffset until)
    {
        var polls = (await StoredPollsAsync(store)).ToLookup(p => p.Instance, StringComparer.OrdinalIgnoreCase);
        return _attempts
            .Where(a => a.At <= until)
            .Where(a => !polls[a.Instance].Any(p => p.StartedAt - Slack <= a.At && a.At <= p.FinishedAt + Slack))
            .ToList();
    }

    public static async Task<IReadOnlyList<StoredPoll>> StoredPollsAsync(string store)
    {
        await using var connection = new SqliteConnection($"Data Source={store};Mode=ReadOnly;Pooling=False");
        await connection.OpenAsync();
        var rows = await connection.QueryAsync<(string Instance, string StartedAt, string FinishedAt, string Outcome)>("""
            SELECT i.name, p.started_at, p.finished_at, p.outcome
            FROM polls p JOIN instances i ON i.id = p.instance_id;
            """);
        // The store writes ISO-8601 UTC text.
        static DateTimeOffset Time(string text) => DateTimeOffset.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);
        return rows.Select(r => new StoredPoll(r.Instance, Time(r.StartedAt), Time(r.FinishedAt), r.Outcome)).ToList();
    }
}

internal sealed record StoredPoll(string Instance, DateTimeOffset StartedAt, DateTimeOffset FinishedAt, string Outcome);

using System.Data.Common;
using Dapper;

namespace IfiDashboard.Store.Retention;

/// <summary>
/// Deletes one batch of old polls with their probe outcomes and service rows, in one short transaction.
/// A poll older than the cut-off stays while the product still reads it:
/// <list type="bullet">
/// <item>the newest poll of its instance (the instance page's "last poll", even for an instance silent for a year);</item>
/// <item>the instance's first good poll, where the IFI timeline starts (FactsReader.ObservationsAsync);</item>
/// <item>any poll a kept row points at: <c>instance_state</c> (last and last good poll), <c>ifi_changes</c> (the
/// timeline, kept for ever), <c>growth_events.first_poll_id</c> (until the event itself is pruned) and the
/// current-state tables' <c>seen_poll_id</c>.</item>
/// </list>
/// The SQL is plain standard SQL (no list parameters, no provider functions) so PostgreSQL runs it unchanged.
/// </summary>
internal static class PollHistoryPruner
{
    /// <summary>Polls of alias <c>p</c> that may go; every delete below repeats it so the three agree.</summary>
    const string Deletable = """
        p.started_at < @cutoff
        AND EXISTS (SELECT 1 FROM polls newer WHERE newer.instance_id = p.instance_id AND newer.started_at > p.started_at)
        AND (p.is_good = 0 OR EXISTS (
            SELECT 1 FROM polls earlier WHERE earlier.instance_id = p.instance_id AND earlier.is_good = 1 AND earlier.id < p.id))
        AND NOT EXISTS (SELECT 1 FROM instance_state s WHERE s.last_poll_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM instance_state s WHERE s.last_good_poll_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM ifi_changes c WHERE c.poll_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM growth_events g WHERE g.first_poll_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM database_files f WHERE f.seen_poll_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM database_encryption e WHERE e.seen_poll_id = p.id)
        AND NOT EXISTS (SELECT 1 FROM database_backups b WHERE b.seen_poll_id = p.id)
        """;

    /// <summary>
    /// Polls after the cursor, in (started_at, id) order. The first condition is a plain range, so the started_at
    /// index finds the start; kept polls behind the cursor are not looked at again in the same pass.
    /// </summary>
    const string AfterCursor = """
        p.started_at >= @afterStartedAt
        AND (p.started_at > @afterStartedAt OR p.id > @afterId)
        """;

    /// <summary>Polls up to and including the last candidate of this batch.</summary>
    const string UpToLast = """
        p.started_at <= @lastStartedAt
        AND (p.started_at < @lastStartedAt OR p.id <= @lastId)
        """;

    const string FindBatch = $"""
        SELECT p.id AS Id, p.started_at AS StartedAt
        FROM polls p
        WHERE {AfterCursor}
          AND {Deletable}
        ORDER BY p.started_at, p.id
        LIMIT @batchSize;
        """;

    const string BatchIds = $"""
        SELECT p.id FROM polls p
        WHERE {AfterCursor}
          AND {UpToLast}
          AND {Deletable}
        """;

    // Children first: foreign keys are enforced, and the cascade on polls is not something to rely on.
    const string DeleteProbeOutcomes = $"DELETE FROM probe_outcomes WHERE poll_id IN ({BatchIds});";
    const string DeleteServiceSnapshots = $"DELETE FROM service_snapshots WHERE poll_id IN ({BatchIds});";
    const string DeletePolls = $"DELETE FROM polls WHERE id IN ({BatchIds});";

    /// <summary>Deletes up to <paramref name="batchSize"/> polls after <paramref name="after"/>.</summary>
    public static async Task<PollBatchResult> DeleteBatchAsync(DbConnection connection, DateTimeOffset cutoff,
        PollCursor after, int batchSize, CancellationToken ct)
    {
        // One write transaction (BEGIN IMMEDIATE on SQLite): the batch is chosen and deleted under the same lock, so
        // ingestion cannot start pointing at a chosen poll in between.
        await using var tx = await connection.BeginWriteAsync(ct);
        var parameters = new
        {
            cutoff,
            afterStartedAt = after.StartedAt,
            afterId = after.Id,
            batchSize = (long)batchSize,
        };
        var batch = (await connection.QueryAsync<Candidate>(new CommandDefinition(FindBatch, parameters, tx, cancellationToken: ct))).ToList();
        if (batch.Count == 0)
            return new PollBatchResult(0, 0, 0, after, Full: false);

        var last = batch[^1];
        var bounded = new
        {
            parameters.cutoff,
            parameters.afterStartedAt,
            parameters.afterId,
            lastStartedAt = last.StartedAt,
            lastId = last.Id,
        };
        var probes = await connection.ExecuteAsync(new CommandDefinition(DeleteProbeOutcomes, bounded, tx, cancellationToken: ct));
        var services = await connection.ExecuteAsync(new CommandDefinition(DeleteServiceSnapshots, bounded, tx, cancellationToken: ct));
        var polls = await connection.ExecuteAsync(new CommandDefinition(DeletePolls, bounded, tx, cancellationToken: ct));
        await tx.CommitAsync(ct);
        return new PollBatchResult(polls, probes, services, new PollCursor(last.StartedAt, last.Id), Full: batch.Count == batchSize);
    }

    sealed class Candidate
    {
        public long Id { get; init; }
        public string StartedAt { get; init; } = "";
    }
}

/// <summary>Where the previous batch of a pass ended: the (started_at, id) of the last poll it deleted.</summary>
internal sealed record PollCursor(string StartedAt, long Id)
{
    /// <summary>Before every poll: the empty text sorts before any time.</summary>
    public static readonly PollCursor Start = new("", 0);
}

/// <param name="Full">The batch was full, so more polls may be waiting.</param>
internal sealed record PollBatchResult(int Polls, int ProbeOutcomes, int ServiceSnapshots, PollCursor Next, bool Full);

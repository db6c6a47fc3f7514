using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>
/// The one rule for "the store could not take this write now, and the same write will succeed later": SQLite's
/// SQLITE_BUSY/SQLITE_LOCKED after its busy timeout, PostgreSQL's lock timeout on the write lock, a serialization
/// failure or deadlock victim, a server starting or shutting down, a connection Npgsql calls transient, or a store that
/// cannot be reached at all (<see cref="IsUnreachable"/>). Everything
/// that sees such an error answers the same way: the API and pages with 503 and Retry-After, the embedded collector by
/// storing the poll again. Any other error is a fault, not a wait.
/// </summary>
public static class StoreBusy
{
    /// <summary>What a refused writer is told to wait: one lock wait, so a retry has a fair chance.</summary>
    public static readonly TimeSpan RetryAfter = TimeSpan.FromSeconds(5);

    /// <summary>
    /// How long a PostgreSQL writer waits for the store's write lock before it gives up with 55P03; SQLite's
    /// <c>busy_timeout</c> (SqliteConnectionFactory) is the same wait for the same reason.
    /// </summary>
    public static readonly TimeSpan LockWait = TimeSpan.FromSeconds(5);

    const int SqliteBusy = 5, SqliteLocked = 6, SqliteCantOpen = 14;

    static readonly HashSet<string> TransientPostgresStates = new(StringComparer.Ordinal)
    {
        PostgresErrorCodes.LockNotAvailable, PostgresErrorCodes.SerializationFailure, PostgresErrorCodes.DeadlockDetected,
        PostgresErrorCodes.CannotConnectNow, PostgresErrorCodes.TooManyConnections, PostgresErrorCodes.AdminShutdown,
    };

    public static bool IsBusy(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case StoreBusyException:
                    return true;
                case SqliteException { SqliteErrorCode: SqliteBusy or SqliteLocked or SqliteCantOpen }:
                    return true;
                case PostgresException postgres when TransientPostgresStates.Contains(postgres.SqlState):
                    return true;
                case NpgsqlException { IsTransient: true } and not PostgresException:
                    return true;
            }
        }
        return false;
    }

    /// <summary>
    /// The busy answers that mean the store's server cannot be reached at all, not that a writer holds a lock: a
    /// connection Npgsql could not open or lost (refused, reset, timed out), a server starting or shutting down, or a
    /// SQLite file that cannot be opened (moved away, its volume gone). An outage, which <see cref="StoreAvailability"/>
    /// logs once, rather than a moment's contention logged per request.
    /// </summary>
    public static bool IsUnreachable(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case SqliteException sqlite:
                    return sqlite.SqliteErrorCode == SqliteCantOpen;
                case PostgresException postgres:
                    return postgres.SqlState is PostgresErrorCodes.CannotConnectNow or PostgresErrorCodes.AdminShutdown;
                case NpgsqlException { IsTransient: true }:
                    return true;
            }
        }
        return false;
    }

    static readonly TimeSpan FirstPause = TimeSpan.FromMilliseconds(250);
    static readonly TimeSpan LongestPause = TimeSpan.FromSeconds(15);

    /// <summary>
    /// Runs a write that must not be given up on until the store takes it: a poll the embedded collector has no outbox
    /// for, the mark of a mail the relay already accepted. Busy answers, and a full or damaged store
    /// (<see cref="StoreFaults.Of"/>: it passes once an administrator frees space or restores the store), are waited
    /// out with growing pauses (250 ms doubling to 15 s), each reported to <paramref name="onBusy"/> with the pause,
    /// the attempt and the error; any other error, or <paramref name="ct"/>, ends it. The write is held in memory
    /// meanwhile: the embedded collector holds at most <c>Collector:MaxConcurrency</c> polls so. Returns the number of
    /// attempts.
    /// </summary>
    public static async Task<int> UntilTakenAsync(Func<Task> write, TimeProvider time, Action<TimeSpan, int, Exception> onBusy, CancellationToken ct)
    {
        var pause = FirstPause;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await write();
                return attempt;
            }
            catch (Exception e) when ((IsBusy(e) || StoreFaults.Of(e) is not null) && !ct.IsCancellationRequested)
            {
                onBusy(pause, attempt, e);
            }
            await Task.Delay(pause, time, ct);
            pause = TimeSpan.FromTicks(Math.Min(pause.Ticks * 2, LongestPause.Ticks));
        }
    }

    /// <summary>Runs a write for a person: a busy store becomes <see cref="StoreBusyException"/>, whose message they can read.</summary>
    public static async Task<T> ForPersonAsync<T>(Func<Task<T>> write)
    {
        try
        {
            return await write();
        }
        catch (Exception e) when (e is not StoreBusyException && IsBusy(e))
        {
            throw new StoreBusyException(RetryAfter, e);
        }
    }

    public static Task ForPersonAsync(Func<Task> write) => ForPersonAsync(async () =>
    {
        await write();
        return true;
    });
}

using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>What is wrong with the store itself, as opposed to it being busy for a moment (<see cref="StoreBusy"/>).</summary>
public enum StoreFault
{
    /// <summary>The store's disk (or <c>Store:MaxSizeMegabytes</c>) is full: writes fail until space is freed.</summary>
    Full,

    /// <summary>The store's file or pages are damaged, or its disk fails to read or write them.</summary>
    Damaged,
}

/// <summary>
/// The one rule for "the store itself is at fault", and the last fault seen: a full disk (SQLite SQLITE_FULL,
/// PostgreSQL 53100) or a damaged store (SQLite SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR; PostgreSQL XX001, XX002,
/// 58030). Such a fault passes only when an operator acts, so it is not a 500 but 507 (full) or 503 (damaged) problem
/// details (<see cref="StoreBusyResponses"/>), <c>/readyz</c> is 503 (<see cref="StoreHealth"/>) until a write of a
/// poll succeeds again, and the embedded collector keeps its poll until then (<see cref="StoreBusy.UntilTakenAsync"/>).
/// </summary>
public sealed class StoreFaults(TimeProvider time, ILogger<StoreFaults>? logger = null)
{
    const int SqliteIoError = 10, SqliteCorrupt = 11, SqliteFull = 13, SqliteNotADatabase = 26;

    readonly Lock _gate = new();
    (StoreFault Fault, DateTimeOffset At)? _current;

    public static StoreFault? Of(Exception exception)
    {
        for (var e = exception; e is not null; e = e.InnerException)
        {
            switch (e)
            {
                case SqliteException { SqliteErrorCode: SqliteFull }:
                case PostgresException { SqlState: PostgresErrorCodes.DiskFull }:
                    return StoreFault.Full;
                case SqliteException { SqliteErrorCode: SqliteCorrupt or SqliteNotADatabase or SqliteIoError }:
                case PostgresException { SqlState: PostgresErrorCodes.DataCorrupted or PostgresErrorCodes.IndexCorrupted or PostgresErrorCodes.IoError }:
                    return StoreFault.Damaged;
            }
        }
        return null;
    }

    /// <summary>The fault a write met that no later write has cleared, with when it was first met; null when writes succeed.</summary>
    public (StoreFault Fault, DateTimeOffset At)? Current
    {
        get { lock (_gate) return _current; }
    }

    /// <summary>Records the fault <paramref name="exception"/> shows, if any; true when it is one.</summary>
    public bool Record(Exception exception)
    {
        if (Of(exception) is not { } fault)
            return false;
        lock (_gate)
        {
            if (_current?.Fault == fault)
                return true;
            _current = (fault, time.GetUtcNow());
        }
        // Once per fault, not per write; the exception's type only, since the store's message may name its host or file.
        logger?.LogError("The store {Fault}: writes fail ({Error}) until an administrator acts (docs/deployment.md#when-the-store-is-full-or-damaged)",
            Describe(fault), exception.GetBaseException().GetType().Name);
        return true;
    }

    /// <summary>A write succeeded: the store takes writes again.</summary>
    public void Cleared()
    {
        (StoreFault Fault, DateTimeOffset At)? was;
        lock (_gate)
        {
            was = _current;
            _current = null;
        }
        if (was is { } fault)
            logger?.LogWarning("The store takes writes again after {Minutes:0.#} min ({Fault} before)",
                (time.GetUtcNow() - fault.At).TotalMinutes, Describe(fault.Fault));
    }

    /// <summary>What a person reads of the fault: never the store's address or file.</summary>
    public static string Describe(StoreFault fault) => fault switch
    {
        StoreFault.Full => "is full",
        _ => "is damaged or its disk fails",
    };
}

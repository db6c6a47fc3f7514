using IfiDashboard.Client.Components;

namespace IfiDashboard.Server.Editing;

/// <summary>
/// A change could not be written because another writer held the store longer than a write waits (a backup, a
/// migration, a long retention pass, a tool with the SQLite file open). Nothing was changed; the same change can be
/// sent again. Its message is written for the person who pressed the button.
/// </summary>
public sealed class StoreBusyException(TimeSpan retryAfter, Exception inner)
    : Exception($"The store is busy: another writer holds it, so nothing was saved. Try again in {retryAfter.TotalSeconds:0} seconds.", inner), IMessageForPeople
{
    public TimeSpan RetryAfter { get; } = retryAfter;
}

/// <summary>
/// The person has run more connection tests than the limit allows for now (Test connection would otherwise scan a
/// network). Nothing was tried; its message says when to try again.
/// </summary>
public sealed class TooManyConnectionTestsException(TimeSpan? retryAfter)
    : Exception(retryAfter is { } wait
        ? $"Too many connection tests: try again in {Math.Max(1, Math.Ceiling(wait.TotalSeconds)):0} seconds."
        : "Too many connection tests: try again in a minute."), IMessageForPeople;

/// <summary>
/// The caller has sent more syncs or CSV imports that write than <c>BulkRegistration:PermitLimit</c> allows per window.
/// Nothing was registered; its message says when to try again.
/// </summary>
public sealed class TooManyBulkRegistrationsException(TimeSpan? retryAfter, BulkRegistrationOptions limit)
    : Exception($"Too many syncs or imports: at most {limit.PermitLimit} per {limit.WindowSeconds} s (BulkRegistration:PermitLimit, WindowSeconds); " +
                (retryAfter is { } wait ? $"try again in {Math.Max(1, Math.Ceiling(wait.TotalSeconds)):0} seconds." : "try again later.")), IMessageForPeople
{
    public TimeSpan? RetryAfter { get; } = retryAfter;
}

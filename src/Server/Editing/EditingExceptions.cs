using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Server.Editing;

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

using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Store;

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

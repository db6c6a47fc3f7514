namespace IfiDashboard.Client.Layout;

/// <summary>Whether the store answers, as the server last found it; the layout's banner reads it on every page.</summary>
public interface IStoreStatus
{
    /// <summary>The outage under way, or null while the store answers.</summary>
    StoreOutage? Outage { get; }

    /// <summary>
    /// A page's read failed: true (and an outage started, logged once) if the store's driver raised
    /// <paramref name="error"/>; false for any other error, which the page logs as its own.
    /// </summary>
    bool ReportFailedRead(string what, Exception error);
}

/// <param name="Since">When the server found the store gone.</param>
/// <param name="DataAsOf">When the fleet the pages show from memory was last read from the store; null if never.</param>
public sealed record StoreOutage(DateTimeOffset Since, DateTimeOffset? DataAsOf);

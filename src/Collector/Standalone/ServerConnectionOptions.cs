namespace IfiDashboard.Collector.Standalone;

/// <summary>Where a standalone collector finds the server (section "Collector").</summary>
public sealed class ServerConnectionOptions
{
    public Uri? ServerUrl { get; set; }
    /// <summary>Sent as X-Api-Key; one of the server's Ingestion:ApiKeys.</summary>
    public string? ApiKey { get; set; }
    /// <summary>
    /// While the server cannot be reached, the instances it last assigned are polled for up to this long after the
    /// last contact, their snapshots queued in the outbox (<see cref="OutageRideThrough"/>); 0 stops polling at once.
    /// </summary>
    public int OutageRideThroughMinutes { get; set; } = 60;
}

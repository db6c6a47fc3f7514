namespace IfiDashboard.Collector.Standalone;

/// <summary>Where a standalone collector finds the server (section "Collector").</summary>
public sealed class ServerConnectionOptions
{
    /// <summary>The server (or its load balancer); <see cref="ServerUrls"/> for several.</summary>
    public Uri? ServerUrl { get; set; }

    /// <summary>
    /// Several servers on one store, tried in this order: a request goes to the next when one does not answer
    /// (<see cref="ServerFailover"/>). <c>Collector:ServerUrls:0</c>, <c>:1</c>, ... or a JSON array.
    /// </summary>
    public List<Uri> ServerUrls { get; set; } = [];

    /// <summary><see cref="ServerUrls"/> when set, else <see cref="ServerUrl"/>, else none.</summary>
    public IReadOnlyList<Uri> Servers => ServerUrls.Count > 0 ? ServerUrls : ServerUrl is { } one ? [one] : [];

    /// <summary>Sent as X-Api-Key; one of the server's Ingestion:ApiKeys.</summary>
    public string? ApiKey { get; set; }
    /// <summary>
    /// While the server cannot be reached, the instances it last assigned are polled for up to this long after the
    /// last contact, their snapshots queued in the outbox (<see cref="OutageRideThrough"/>); 0 stops polling at once.
    /// </summary>
    public int OutageRideThroughMinutes { get; set; } = 60;
}

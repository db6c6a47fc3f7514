namespace IfiDashboard.Collector.Standalone;

/// <summary>Where a standalone collector finds the server (section "Collector").</summary>
public sealed class ServerConnectionOptions
{
    public Uri? ServerUrl { get; set; }
    /// <summary>Sent as X-Api-Key; one of the server's Ingestion:ApiKeys.</summary>
    public string? ApiKey { get; set; }
}

namespace IfiDashboard.Collector.Standalone;

/// <summary>The standalone collector's on-disk queue of snapshots not yet accepted by the server.</summary>
public sealed class OutboxOptions
{
    public const string Section = "Collector:Outbox";

    public string Directory { get; set; } = "outbox";
    /// <summary>Beyond this many queued snapshots the oldest are dropped (and counted), so a long outage cannot fill the disk.</summary>
    public int MaxSnapshots { get; set; } = 20_000;
    public double MaxBackoffSeconds { get; set; } = 60;
}

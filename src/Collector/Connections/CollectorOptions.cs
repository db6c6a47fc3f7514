namespace IfiDashboard.Collector.Connections;

/// <summary>Collector settings (configuration section "Collector").</summary>
public sealed class CollectorOptions
{
    public const string Section = "Collector";

    /// <summary>Identifies this collector in leases and snapshots.</summary>
    public string Name { get; set; } = Environment.MachineName;
    /// <summary>How many instances are polled at once.</summary>
    public int MaxConcurrency { get; set; } = 32;
    public int ConnectTimeoutSeconds { get; set; } = 8;
    public int CommandTimeoutSeconds { get; set; } = 15;
    /// <summary>A whole poll of one instance is abandoned after this long, so a hanging instance holds one slot only.</summary>
    public int PollDeadlineSeconds { get; set; } = 30;
    public int LeaseSeconds { get; set; } = 120;
    /// <summary>Extra attempts to open a connection after a transient failure (never after a login failure).</summary>
    public int ConnectRetries { get; set; } = 2;
    /// <summary>How often the scheduler looks for due instances when it has nothing to do.</summary>
    public double IdleCheckSeconds { get; set; } = 1;
    /// <summary>Next poll = interval × (1 ± this fraction), so a fleet registered at once spreads out.</summary>
    public double JitterFraction { get; set; } = 0.1;
    /// <summary>Optional JSON file of credentials ({"Credentials": {"name": {"UserId": "...", "Password": "..."}}}).</summary>
    public string? SecretsFile { get; set; }
    /// <summary>
    /// When not empty, the only hosts this collector connects to at all, with or without a credential: names,
    /// wildcards and CIDR ranges as in <c>Credentials:&lt;name&gt;:AllowedHosts</c>.
    /// </summary>
    public List<string> AllowedNetworks { get; set; } = [];
}

namespace IfiDashboard.Store.Ingestion;

/// <summary>Section "Ingestion": the collector API's keys and the limits it holds standalone collectors to.</summary>
public sealed class IngestionOptions
{
    public const string Section = "Ingestion";
    public const string ApiKeyHeader = "X-Api-Key";

    /// <summary>
    /// Configured collector keys by the name of the one collector each belongs to (its <c>Collector:Name</c>):
    /// <c>Ingestion:ApiKeys:dc1_collector=&lt;key&gt;</c>. None configured means only stored keys with the
    /// <c>snapshot:ingest</c> scope are accepted.
    /// </summary>
    public Dictionary<string, string> ApiKeys { get; set; } = new(StringComparer.Ordinal);

    /// <summary>
    /// How far a collector's clock may be off the server's: a snapshot's collected times may be this far ahead of the
    /// server's clock (and are stored as no later than it), and its poll may start this long before the lease.
    /// </summary>
    public TimeSpan MaxClockSkew { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The most unexpired leases one collector may hold; a lease request for more gets fewer.</summary>
    public int MaxLeasesPerCollector { get; set; } = 100;

    /// <summary>The longest lease the collector API grants, whatever a collector asks for.</summary>
    public int MaxLeaseSeconds { get; set; } = 300;

    /// <summary>
    /// How long the collector that leased an instance last must have been silent (no lease, no delivery) before another
    /// collector, itself heard from throughout that time, may take the instance over. Applies to every collector,
    /// embedded ones too.
    /// </summary>
    public TimeSpan TakeoverDelay { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>Instances one collector may take over from others in an hour before the administrators are mailed.</summary>
    public int TakeoverAlertThreshold { get; set; } = 10;

    /// <summary>Largest accepted snapshot body.</summary>
    public int MaxSnapshotBytes { get; set; } = 16 * 1024 * 1024;

    /// <summary>Largest accepted body of the lease requests.</summary>
    public int MaxRequestBytes { get; set; } = 16 * 1024;
}

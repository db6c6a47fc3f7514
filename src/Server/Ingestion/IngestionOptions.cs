namespace IfiDashboard.Server.Ingestion;

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

    /// <summary>How far ahead of the server's clock a snapshot's collected times may be.</summary>
    public TimeSpan MaxClockSkew { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>The most unexpired leases one collector may hold.</summary>
    public int MaxLeasesPerCollector { get; set; } = 1000;

    /// <summary>Largest accepted snapshot body.</summary>
    public int MaxSnapshotBytes { get; set; } = 16 * 1024 * 1024;

    /// <summary>Largest accepted body of the lease requests.</summary>
    public int MaxRequestBytes { get; set; } = 16 * 1024;
}

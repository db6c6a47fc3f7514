namespace IfiDashboard.Server.Ingestion;

/// <summary>Section "Ingestion": the keys standalone collectors present in the X-Api-Key header.</summary>
public sealed class IngestionOptions
{
    public const string Section = "Ingestion";
    public const string ApiKeyHeader = "X-Api-Key";

    /// <summary>Accepted keys. None configured means the collector API refuses everyone.</summary>
    public List<string> ApiKeys { get; set; } = [];
}

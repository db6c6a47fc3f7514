namespace IfiDashboard.Shared.Inventory;

/// <summary>
/// A registered SQL Server instance and how to reach it. Holds a credential *name* only: the collector resolves the
/// secret from its own environment, so the store never sees a password.
/// </summary>
public sealed record InstanceRegistration
{
    public long Id { get; init; }
    public required string Name { get; init; }
    public required string Host { get; init; }
    public int? Port { get; init; }
    public string? InstanceName { get; init; }
    public string Environment { get; init; } = "Production";
    public string? Owner { get; init; }
    public IReadOnlyList<string> Tags { get; init; } = [];
    public EncryptMode Encrypt { get; init; } = EncryptMode.Mandatory;
    public bool TrustServerCertificate { get; init; }
    /// <summary>The TLS name to validate the certificate against instead of Host; a SQL login's credential must list it.</summary>
    public string? HostNameInCertificate { get; init; }
    /// <summary>
    /// A certificate file on the collector's machine, in the credential's CertificateFolder, to pin the server's
    /// certificate to. Encrypt=Strict ignores TrustServerCertificate, so a self-signed server certificate is trusted
    /// only this way.
    /// </summary>
    public string? ServerCertificatePath { get; init; }
    /// <summary>Null means integrated security.</summary>
    public string? CredentialName { get; init; }
    public int PollIntervalSeconds { get; init; } = 300;
    public DateTimeOffset? RetiredAt { get; init; }
}

public enum EncryptMode
{
    Mandatory,
    Optional,
    Strict,
}

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// A credential the collector holds locally, with the hosts it may be used for: a SQL login (<see cref="UserId"/> and
/// <see cref="Password"/>), or integrated security, the collector's own Windows or Kerberos identity (both null).
/// Never stored centrally, never logged.
/// </summary>
/// <param name="AllowedHosts">Where this credential may be used; empty means nowhere (fail closed).</param>
/// <param name="AllowTrustServerCertificate">Whether an instance registered with TrustServerCertificate may receive the SQL login.</param>
public sealed record CollectorCredential(string? UserId, string? Password, HostAllowList AllowedHosts, bool AllowTrustServerCertificate = false)
{
    public bool IsIntegratedSecurity => UserId is null;

    /// <summary>The TLS names (names, wildcards) an instance's HostNameInCertificate may give for this SQL login; none: only its own host.</summary>
    public HostAllowList CertificateNames { get; init; } = HostAllowList.Parse([]);

    /// <summary>The absolute folder an instance's pinned certificate file must be in; null: no instance may pin one.</summary>
    public string? CertificateFolder { get; init; }

    public override string ToString() =>
        IsIntegratedSecurity ? "CollectorCredential { IntegratedSecurity = true }" : $"CollectorCredential {{ UserId = {UserId}, Password = *** }}";
}

/// <summary>Turns a credential *name* from the inventory into a credential held by this collector.</summary>
public interface ICredentialResolver
{
    /// <returns>Null when this collector has no credential of that name.</returns>
    /// <exception cref="FormatException">The credential is configured wrongly: an allow-list entry that is not a host,
    /// wildcard or range, or integrated security with a user name or password.</exception>
    CollectorCredential? Resolve(string credentialName);
}

namespace IfiDashboard.Collector.Credentials;

/// <summary>A SQL login the collector holds locally, with the hosts it may be sent to. Never stored centrally, never logged.</summary>
/// <param name="AllowedHosts">Where this login may be used; empty means nowhere (fail closed).</param>
/// <param name="AllowTrustServerCertificate">Whether an instance registered with TrustServerCertificate may receive it.</param>
public sealed record SqlCredential(string UserId, string Password, HostAllowList AllowedHosts, bool AllowTrustServerCertificate = false)
{
    public override string ToString() => $"SqlCredential {{ UserId = {UserId}, Password = *** }}";
}

/// <summary>Turns a credential *name* from the inventory into a secret held by this collector.</summary>
public interface ICredentialResolver
{
    /// <returns>Null when this collector has no credential of that name.</returns>
    /// <exception cref="FormatException">The credential's allow-list has an entry that is not a host, wildcard or range.</exception>
    SqlCredential? Resolve(string credentialName);
}

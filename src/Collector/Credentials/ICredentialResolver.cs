namespace IfiDashboard.Collector.Credentials;

/// <summary>A SQL login the collector holds locally. Never stored centrally, never logged.</summary>
public sealed record SqlCredential(string UserId, string Password)
{
    public override string ToString() => $"SqlCredential {{ UserId = {UserId}, Password = *** }}";
}

/// <summary>Turns a credential *name* from the inventory into a secret held by this collector.</summary>
public interface ICredentialResolver
{
    /// <returns>Null when this collector has no credential of that name.</returns>
    SqlCredential? Resolve(string credentialName);
}

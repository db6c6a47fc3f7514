namespace IfiDashboard.Server.Api.Auth;

/// <summary>Who a valid key is: its prefix ("bootstrap" for the configured admin key), name and scopes.</summary>
public sealed record ApiKeyIdentity(string KeyId, string Name, IReadOnlyList<string> Scopes);

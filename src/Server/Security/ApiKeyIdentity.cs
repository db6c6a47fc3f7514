namespace IfiDashboard.Server.Security;

/// <summary>
/// Who a valid key is: its prefix ("bootstrap" for the configured admin key), name and scopes, and for a collector's
/// key the collector it belongs to.
/// </summary>
public sealed record ApiKeyIdentity(string KeyId, string Name, IReadOnlyList<string> Scopes, string? CollectorName = null);

using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Store.ApiKeys;
using Microsoft.Extensions.Options;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Security;

/// <summary>Resolves a presented key: the configured bootstrap admin key, or an unrevoked stored key by its hash.</summary>
public sealed class ApiKeyAuthenticator(ApiKeyStore keys, IOptionsMonitor<ApiOptions> options)
{
    public const string BootstrapKeyId = "bootstrap";

    public async Task<ApiKeyIdentity?> AuthenticateAsync(string presented, CancellationToken cancellationToken)
    {
        if (presented.Length is 0 or > ApiKeyMaterial.MaxPresentedLength)
            return null;
        if (IsBootstrapKey(presented))
            return new ApiKeyIdentity(BootstrapKeyId, "bootstrap admin key (Api:BootstrapAdminKey)", [ApiScopes.Admin]);
        var record = await keys.FindActiveByHashAsync(ApiKeyMaterial.Hash(presented), cancellationToken);
        return record is null ? null : new ApiKeyIdentity(record.Prefix, record.Name, record.Scopes, record.CollectorName);
    }

    bool IsBootstrapKey(string presented)
    {
        var bootstrap = options.CurrentValue.BootstrapAdminKey;
        if (string.IsNullOrEmpty(bootstrap))
            return false;
        // Hashing both sides first makes the comparison constant-time whatever the lengths.
        return CryptographicOperations.FixedTimeEquals(
            SHA256.HashData(Encoding.UTF8.GetBytes(presented)), SHA256.HashData(Encoding.UTF8.GetBytes(bootstrap)));
    }
}

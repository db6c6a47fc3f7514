using IfiDashboard.Server.Api.Auth;
using IfiDashboard.Server.Api.Inventory;
using IfiDashboard.Server.Store.ApiKeys;
using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Server.Api.Keys;

/// <summary>Creates keys for the API and the CLI alike: validates, draws a random key, stores only its hash.</summary>
public sealed class ApiKeyIssuer(ApiKeyRepository keys)
{
    /// <summary>Messages by field ("name", "scopes", "scopes[1]"); empty when the request is valid.</summary>
    public static Dictionary<string, string[]> Validate(string? name, IReadOnlyList<string?>? scopes)
    {
        var errors = new FieldErrors();
        if (string.IsNullOrEmpty(name) || !TextRules.DisplayName().IsMatch(name))
            errors.Add("name", TextRules.DisplayNameRule);
        if (scopes is null || scopes.Count == 0)
            errors.Add("scopes", $"At least one of: {string.Join(", ", ApiScopes.All)}.");
        else
        {
            var seen = new HashSet<string>(StringComparer.Ordinal);
            for (var i = 0; i < scopes.Count; i++)
            {
                if (scopes[i] is not { } scope || !ApiScopes.IsKnown(scope))
                    errors.Add($"scopes[{i}]", $"One of: {string.Join(", ", ApiScopes.All)}.");
                else if (!seen.Add(scope))
                    errors.Add($"scopes[{i}]", "Duplicate scope.");
            }
        }
        return errors.ToDictionary();
    }

    /// <summary>A new key for a validated request; the returned key is the only copy there will be.</summary>
    public async Task<(ApiKeyRecord Record, string Key)> CreateAsync(string name, IReadOnlyList<string> scopes,
        CancellationToken cancellationToken)
    {
        // A prefix collision (40 random bits) is unlikely but possible: draw again.
        for (var attempt = 0; attempt < 5; attempt++)
        {
            var (prefix, key) = ApiKeyMaterial.Generate();
            if (await keys.TryAddAsync(prefix, ApiKeyMaterial.Hash(key), name, scopes, cancellationToken) is { } record)
                return (record, key);
        }
        throw new InvalidOperationException("Could not draw an unused API key prefix.");
    }
}

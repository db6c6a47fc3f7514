using IfiDashboard.Server.Security;
using IfiDashboard.Store.ApiKeys;
using IfiDashboard.Shared.Validation;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Api.Keys;

/// <summary>Creates keys for the API and the CLI alike: validates, draws a random key, stores only its hash.</summary>
public sealed class ApiKeyIssuer(ApiKeyStore keys)
{
    /// <summary>Messages by field ("name", "scopes", "scopes[1]", "collector"); empty when the request is valid.</summary>
    /// <param name="collector">The collector a <c>snapshot:ingest</c> key belongs to: required with that scope, refused without.</param>
    public static Dictionary<string, string[]> Validate(string? name, IReadOnlyList<string?>? scopes, string? collector)
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
        var ingests = scopes?.Contains(ApiScopes.SnapshotIngest) == true;
        if (ingests && (string.IsNullOrEmpty(collector) || !TextRules.DisplayName().IsMatch(collector)))
            errors.Add("collector", $"A key with the scope '{ApiScopes.SnapshotIngest}' belongs to one collector: its Collector:Name, {TextRules.DisplayNameRule}");
        else if (!ingests && collector is not null)
            errors.Add("collector", $"Only a key with the scope '{ApiScopes.SnapshotIngest}' belongs to a collector.");
        return errors.ToDictionary();
    }

    /// <summary>A new key for a validated request; the returned key is the only copy there will be.</summary>
    public async Task<(ApiKeyRecord Record, string Key)> CreateAsync(string name, IReadOnlyList<string> scopes,
        string? collector, CancellationToken cancellationToken)
    {
        // A prefix collision (40 random bits) is unlikely but possible: draw again.
        for (var attempt = 0; attempt < 5; attempt++)
        {
            var (prefix, key) = ApiKeyMaterial.Generate();
            if (await keys.TryAddAsync(prefix, ApiKeyMaterial.Hash(key), name, scopes, collector, cancellationToken) is { } record)
                return (record, key);
        }
        throw new InvalidOperationException("Could not draw an unused API key prefix.");
    }
}

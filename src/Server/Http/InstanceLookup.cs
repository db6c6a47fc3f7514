using System.Globalization;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Store.Changes;

namespace IfiDashboard.Server.Http;

/// <summary>
/// Finds an assessed (active) instance by the <c>{key}</c> of a compliance URL: the CMDB's external key, or else the
/// instance's numeric id. An external key made only of digits therefore wins over the id it spells.
/// </summary>
internal static class InstanceLookup
{
    public sealed record Found(InstanceAssessment Instance, string? ExternalKey, IReadOnlyDictionary<long, string> Keys);

    public static bool IsWellFormed(string key) => FieldRules.ExternalKey().IsMatch(key);

    /// <returns>The instance, or the 404 problem to answer.</returns>
    public static async Task<(Found? Found, IResult? Problem)> FindAsync(string key, FleetAssessment fleet,
        ExternalKeys externalKeys, CancellationToken ct)
    {
        var keys = await externalKeys.ActiveAsync(ct);
        var (instance, byKey) = Find(key, fleet, keys);
        if (instance is not null)
            return (new Found(instance, keys.GetValueOrDefault(instance.Registration.Id), keys), null);
        // Registered since the last assessment (a CMDB PUT does not trigger one): say so rather than "no such instance".
        var detail = byKey
            ? $"The instance '{key}' is registered but not assessed yet; the assessment runs every minute."
            : $"No active instance has the external key or id '{key}'.";
        return (null, TypedResults.Problem(detail, statusCode: StatusCodes.Status404NotFound, title: "Instance not found"));
    }

    /// <summary>The assessed instance a key names, with whether an external key matched (registered, maybe not assessed yet).</summary>
    public static (InstanceAssessment? Instance, bool ByExternalKey) Find(string key, FleetAssessment fleet,
        IReadOnlyDictionary<long, string> keys)
    {
        var (id, byKey) = IdOf(key, keys);
        return (id is { } found ? fleet.Find(found) : null, byKey);
    }

    /// <summary>The instance id a key names (an active instance's external key, else the digits of an id), assessed or not.</summary>
    public static (long? Id, bool ByExternalKey) IdOf(string key, IReadOnlyDictionary<long, string> keys)
    {
        var byKey = keys.Where(k => string.Equals(k.Value, key, StringComparison.Ordinal)).Select(k => (long?)k.Key).FirstOrDefault();
        return (byKey ?? (long.TryParse(key, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) ? parsed : null), byKey is not null);
    }
}

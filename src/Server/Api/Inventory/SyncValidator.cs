using IfiDashboard.Server.Store.Inventory;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>Validates a whole sync payload: every item, and that keys and names are distinct within it.</summary>
internal static class SyncValidator
{
    /// <returns>The desired instances, or null when <paramref name="errors"/> got messages.</returns>
    public static IReadOnlyList<DesiredInstance>? Validate(SyncRequest request, int maxInstances, FieldErrors errors)
    {
        if (request.Instances is null)
        {
            errors.Add("instances", "Required: the CMDB's full desired inventory (an empty array retires every CMDB instance).");
            return null;
        }
        if (request.Instances.Count > maxInstances)
        {
            errors.Add("instances", $"At most {maxInstances} instances in one sync.");
            return null;
        }

        var desired = new List<DesiredInstance>(request.Instances.Count);
        var keys = new Dictionary<string, int>(StringComparer.Ordinal);
        var names = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < request.Instances.Count; i++)
        {
            var prefix = $"instances[{i}].";
            if (request.Instances[i] is not { } item)
            {
                errors.Add($"instances[{i}]", "Must be an object.");
                continue;
            }
            if (InstanceValidator.Validate(item, item.ExternalKey, prefix, errors) is not { } valid)
                continue;
            if (!keys.TryAdd(valid.ExternalKey, i))
                errors.Add(prefix + "externalKey", $"Duplicate of instances[{keys[valid.ExternalKey]}].externalKey.");
            else if (!names.TryAdd(valid.Registration.Name, i))
                errors.Add(prefix + "name", $"Duplicate of instances[{names[valid.Registration.Name]}].name (names compare ignoring case).");
            else
                desired.Add(valid);
        }
        return errors.Any ? null : desired;
    }
}

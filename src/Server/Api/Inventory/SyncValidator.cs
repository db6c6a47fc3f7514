using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>Validates a whole sync payload: every item, and that keys and names are distinct within it.</summary>
internal static class SyncValidator
{
    /// <summary>An item of the payload the sync leaves out, with its errors by path and its key when that was readable.</summary>
    public sealed record RejectedItem(int Index, string? ExternalKey, FieldErrors Errors);

    /// <summary>The valid items, each with its index in the payload, and the rejected ones.</summary>
    public sealed record Items(IReadOnlyList<DesiredInstance> Desired, IReadOnlyList<int> Indexes, IReadOnlyList<RejectedItem> Rejected);

    /// <returns>The desired instances, or null when <paramref name="errors"/> got messages (all or nothing).</returns>
    public static IReadOnlyList<DesiredInstance>? Validate(SyncRequest request, int maxInstances, FieldErrors errors)
    {
        if (Each(request, maxInstances, errors) is not { } items)
            return null;
        foreach (var rejected in items.Rejected)
            foreach (var (field, messages) in rejected.Errors.ToDictionary())
                foreach (var message in messages)
                    errors.Add(field, message);
        return errors.Any ? null : items.Desired;
    }

    /// <summary>
    /// Each item on its own, for a partial sync: a broken item, or one repeating an earlier item's key or name, is
    /// rejected and the others kept. Null, with <paramref name="errors"/>, only when the payload as a whole is wrong.
    /// </summary>
    public static Items? Each(SyncRequest request, int maxInstances, FieldErrors errors)
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
        var indexes = new List<int>(request.Instances.Count);
        var rejected = new List<RejectedItem>();
        var keys = new Dictionary<string, int>(StringComparer.Ordinal);
        var names = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < request.Instances.Count; i++)
        {
            var prefix = $"instances[{i}].";
            var itemErrors = new FieldErrors();
            var item = request.Instances[i];
            if (item is null)
                itemErrors.Add($"instances[{i}]", "Must be an object.");
            else if (InstanceValidator.Validate(item, item.ExternalKey, prefix, itemErrors) is { } valid)
            {
                if (!keys.TryAdd(valid.ExternalKey, i))
                    itemErrors.Add(prefix + "externalKey", $"Duplicate of instances[{keys[valid.ExternalKey]}].externalKey.");
                else if (!names.TryAdd(valid.Registration.Name, i))
                    itemErrors.Add(prefix + "name", $"Duplicate of instances[{names[valid.Registration.Name]}].name (names compare ignoring case).");
                else
                {
                    desired.Add(valid);
                    indexes.Add(i);
                    continue;
                }
            }
            var key = item?.ExternalKey is { } k && FieldRules.ExternalKey().IsMatch(k) ? k : null;
            rejected.Add(new RejectedItem(i, key, itemErrors));
        }
        return new Items(desired, indexes, rejected);
    }
}

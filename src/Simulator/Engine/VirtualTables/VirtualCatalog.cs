using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>Resolves object names (FROM sources and OBJECT_ID arguments) to the modelled system views.</summary>
internal static class VirtualCatalog
{
    public static readonly IReadOnlyList<VirtualTable> Tables =
    [
        new ServerServicesTable(),
        new AllColumnsTable(),
        new HostInfoTable(),
        new DatabasesTable(),
    ];

    /// <summary>
    /// The table a one- to three-part name denotes, whether or not this build has it; null when the simulator
    /// models no such object. Only the sys schema is modelled, and a database prefix must name a known database.
    /// </summary>
    public static VirtualTable? Find(IReadOnlyList<string> parts)
    {
        if (parts.Count is < 2 or > 3 || !string.Equals(parts[^2], "sys", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }

        if (parts.Count == 3 && !DatabasesTable.Names.Contains(parts[0], StringComparer.OrdinalIgnoreCase))
        {
            return null;
        }

        return Tables.FirstOrDefault(t => string.Equals(t.Name, parts[^1], StringComparison.OrdinalIgnoreCase));
    }

    /// <summary>OBJECT_ID semantics: the id of an object this build has, or null (never an error).</summary>
    public static int? ObjectId(string name, VersionProfile profile)
    {
        var parts = name.Split('.').Select(p => p.Trim().TrimStart('[').TrimEnd(']')).ToList();
        var table = Find(parts);
        return table is not null && table.ExistsIn(profile) ? table.ObjectId : null;
    }
}

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
        new MasterFilesTable(),
        new DatabaseEncryptionKeysTable(),
        new TracesTable(),
        new ConfigurationsTable(),
        new BackupSetTable(),
        new RestoreHistoryTable(),
        new ClusterNodesTable(),
        new AvailabilityGroupsTable(),
        new AvailabilityReplicasTable(),
        new AvailabilityGroupListenersTable(),
        new AvailabilityReplicaStatesTable(),
        new AvailabilityGroupStatesTable(),
    ];

    /// <summary>
    /// The table a one- to three-part name denotes, whether or not this build has it; null when the simulator
    /// models no such object. A sys view needs the sys schema; an msdb table needs msdb named or current, with the
    /// dbo schema named or left to the default. A database prefix must name a database of the instance.
    /// </summary>
    public static VirtualTable? Find(IReadOnlyList<string> parts, SessionContext session)
    {
        if (parts.Count is < 1 or > 3)
        {
            return null;
        }

        var database = parts.Count == 3 ? parts[0] : session.Database;
        if (parts.Count == 3 && DatabaseLayout.Find(session.Instance, database) is null)
        {
            return null;
        }

        var schema = parts.Count >= 2 ? parts[^2] : "";
        return Tables.FirstOrDefault(t =>
            Same(t.Name, parts[^1])
            && (t.HomeDatabase is null
                ? Same(schema, t.Schema)
                : Same(database, t.HomeDatabase) && (schema.Length == 0 || Same(schema, t.Schema))));
    }

    /// <summary>OBJECT_ID semantics: the id of an object this build has, or null (never an error).</summary>
    public static int? ObjectId(string name, SessionContext session)
    {
        var parts = name.Split('.').Select(p => p.Trim().TrimStart('[').TrimEnd(']')).ToList();
        var table = Find(parts, session);
        return table is not null && table.ExistsIn(session.Profile) ? table.ObjectId : null;
    }

    private static bool Same(string a, string b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);
}

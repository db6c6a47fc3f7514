using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>sys.databases: the system databases and the scenario's own, with recovery model and TDE flag.</summary>
internal sealed class DatabasesTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        ResultColumn.NVarChar("name", 128, nullable: false),
        new("database_id", SqlType.Int, Nullable: false),
        // The source of a database snapshot; NULL for every other database.
        new("source_database_id", SqlType.Int),
        ResultColumn.NVarChar("state_desc", 60),
        ResultColumn.NVarChar("recovery_model_desc", 60),
        // Can lag behind the encryption DMV while encryption is in progress (reference section 6).
        new("is_encrypted", SqlType.Bit),
    ];

    public override string Name => "databases";

    public override int ObjectId => -1004;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var databases = DatabaseLayout.For(session.Instance);
        return databases.Select(d => new object?[]
        {
            d.Name, d.Id, d.SnapshotOf is { } source ? databases.FirstOrDefault(s => s.Name == source)?.Id : null,
            "ONLINE", d.RecoveryModel, d.IsEncrypted,
        });
    }

    public static string? NameOf(SessionContext session, long databaseId) =>
        DatabaseLayout.For(session.Instance).FirstOrDefault(d => d.Id == databaseId)?.Name;

    public static int? IdOf(SessionContext session, string? name) =>
        name is null ? null : DatabaseLayout.Find(session.Instance, name)?.Id;
}

using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// msdb.dbo.restorehistory (reference section 7): restore_date is when the restore finished, in server local time.
/// restore_type is char(1) on SQL Server and travels as nvarchar(1) here.
/// </summary>
internal sealed class RestoreHistoryTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("restore_history_id", SqlType.Int, Nullable: false),
        new("restore_date", SqlType.DateTime),
        ResultColumn.NVarChar("destination_database_name", 128),
        ResultColumn.NVarChar("user_name", 128),
        new("backup_set_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("restore_type", 1),
        new("replace", SqlType.Bit),
    ];

    public override string Name => "restorehistory";

    public override string Schema => "dbo";

    public override string? HomeDatabase => "msdb";

    public override int ObjectId => 1_000_002;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var instance = session.Instance;
        return instance.Restores.Select((r, i) => new object?[]
        {
            i + 1, ServerClock.Local(instance, r.RestoreDate), r.DestinationDatabase, "sa", r.BackupSetId,
            r.RestoreType, r.Replace,
        });
    }
}

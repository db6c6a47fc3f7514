using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// msdb.dbo.restorehistory (reference section 7): restore_date is when the restore finished, in server local time.
/// Every documented column in the documented order; a scenario's restore is a plain one WITH RECOVERY from one device.
/// </summary>
internal sealed class RestoreHistoryTable : VirtualTable
{
    // "restorehistory (Transact-SQL)", learn.microsoft.com/sql/relational-databases/system-tables/restorehistory-transact-sql
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("restore_history_id", SqlType.Int, Nullable: false),
        new("restore_date", SqlType.DateTime),
        ResultColumn.NVarChar("destination_database_name", 128),
        ResultColumn.NVarChar("user_name", 128),
        new("backup_set_id", SqlType.Int, Nullable: false),
        new("restore_type", SqlType.Char, MaxLength: 1),
        new("replace", SqlType.Bit),
        new("recovery", SqlType.Bit),
        new("restart", SqlType.Bit),
        new("stop_at", SqlType.DateTime),
        new("device_count", SqlType.TinyInt),
        ResultColumn.NVarChar("stop_at_mark_name", 128),
        new("stop_before", SqlType.Bit),
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
            r.RestoreType, r.Replace, true, false, null, (byte)1, null, null,
        });
    }
}

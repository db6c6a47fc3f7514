using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// msdb.dbo.backupset (reference section 7): sizes in bytes as numeric(20,0), dates in server local time. type is
/// char(1) on SQL Server; result sets here carry no char type, so it travels as nvarchar(1).
/// </summary>
internal sealed class BackupSetTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("backup_set_id", SqlType.Int, Nullable: false),
        new("backup_start_date", SqlType.DateTime),
        new("backup_finish_date", SqlType.DateTime),
        ResultColumn.NVarChar("type", 1),
        new("backup_size", SqlType.Decimal, Precision: 20),
        ResultColumn.NVarChar("database_name", 128),
        ResultColumn.NVarChar("server_name", 128),
        ResultColumn.NVarChar("machine_name", 128),
        new("compressed_backup_size", SqlType.Decimal, Precision: 20),
    ];

    public override string Name => "backupset";

    public override string Schema => "dbo";

    public override string? HomeDatabase => "msdb";

    public override int ObjectId => 1_000_001;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var instance = session.Instance;
        return instance.Backups.Select((b, i) => new object?[]
        {
            i + 1, ServerClock.Local(instance, b.Start), ServerClock.Local(instance, b.Finish), b.Type, b.BackupSize,
            b.Database, ServerIdentity.ServerName(instance), ServerIdentity.MachineName(instance), b.CompressedBackupSize,
        });
    }
}

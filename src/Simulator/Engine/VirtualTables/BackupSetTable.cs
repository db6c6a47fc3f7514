using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// msdb.dbo.backupset (reference section 7): sizes in bytes as numeric(20,0), dates in server local time. Every
/// documented column in the documented order; what a scenario's backup does not say is a plain full backup to disk's
/// (one media family, no encryption, MS_XPRESS from 2022).
/// </summary>
internal sealed class BackupSetTable : VirtualTable
{
    private const int Sql2022 = 16;

    private static readonly ResultColumn Lsn = new("lsn", SqlType.Numeric, Precision: 25);

    // "backupset (Transact-SQL)", learn.microsoft.com/sql/relational-databases/system-tables/backupset-transact-sql
    // (the page lists encryptor_type twice; the table has it once).
    private static readonly DocumentedColumns Documented = new(
    [
        new ResultColumn("backup_set_id", SqlType.Int, Nullable: false),
        new ResultColumn("backup_set_uuid", SqlType.UniqueIdentifier, Nullable: false),
        new ResultColumn("media_set_id", SqlType.Int, Nullable: false),
        new ResultColumn("first_family_number", SqlType.TinyInt),
        new ResultColumn("first_media_number", SqlType.SmallInt),
        new ResultColumn("last_family_number", SqlType.TinyInt),
        new ResultColumn("last_media_number", SqlType.SmallInt),
        new ResultColumn("catalog_family_number", SqlType.TinyInt),
        new ResultColumn("catalog_media_number", SqlType.SmallInt),
        new ResultColumn("position", SqlType.Int),
        new ResultColumn("expiration_date", SqlType.DateTime),
        new ResultColumn("software_vendor_id", SqlType.Int),
        ResultColumn.NVarChar("name", 128),
        ResultColumn.NVarChar("description", 255),
        ResultColumn.NVarChar("user_name", 128),
        new ResultColumn("software_major_version", SqlType.TinyInt),
        new ResultColumn("software_minor_version", SqlType.TinyInt),
        new ResultColumn("software_build_version", SqlType.SmallInt),
        new ResultColumn("time_zone", SqlType.SmallInt),
        new ResultColumn("mtf_minor_version", SqlType.TinyInt),
        Lsn with { Name = "first_lsn" },
        Lsn with { Name = "last_lsn" },
        Lsn with { Name = "checkpoint_lsn" },
        Lsn with { Name = "database_backup_lsn" },
        new ResultColumn("database_creation_date", SqlType.DateTime),
        new ResultColumn("backup_start_date", SqlType.DateTime),
        new ResultColumn("backup_finish_date", SqlType.DateTime),
        new ResultColumn("type", SqlType.Char, MaxLength: 1),
        new ResultColumn("sort_order", SqlType.SmallInt),
        new ResultColumn("code_page", SqlType.SmallInt),
        new ResultColumn("compatibility_level", SqlType.TinyInt),
        new ResultColumn("database_version", SqlType.Int),
        new ResultColumn("backup_size", SqlType.Numeric, Precision: 20),
        ResultColumn.NVarChar("database_name", 128),
        ResultColumn.NVarChar("server_name", 128),
        ResultColumn.NVarChar("machine_name", 128),
        new ResultColumn("flags", SqlType.Int),
        new ResultColumn("unicode_locale", SqlType.Int),
        new ResultColumn("unicode_compare_style", SqlType.Int),
        ResultColumn.NVarChar("collation_name", 128),
        new ResultColumn("is_password_protected", SqlType.Bit),
        ResultColumn.NVarChar("recovery_model", 60),
        new ResultColumn("has_bulk_logged_data", SqlType.Bit),
        new ResultColumn("is_snapshot", SqlType.Bit),
        new ResultColumn("is_readonly", SqlType.Bit),
        new ResultColumn("is_single_user", SqlType.Bit),
        new ResultColumn("has_backup_checksums", SqlType.Bit),
        new ResultColumn("is_damaged", SqlType.Bit),
        new ResultColumn("begins_log_chain", SqlType.Bit),
        new ResultColumn("has_incomplete_metadata", SqlType.Bit),
        new ResultColumn("is_force_offline", SqlType.Bit),
        new ResultColumn("is_copy_only", SqlType.Bit),
        new ResultColumn("first_recovery_fork_guid", SqlType.UniqueIdentifier),
        new ResultColumn("last_recovery_fork_guid", SqlType.UniqueIdentifier),
        Lsn with { Name = "fork_point_lsn" },
        new ResultColumn("database_guid", SqlType.UniqueIdentifier),
        new ResultColumn("family_guid", SqlType.UniqueIdentifier),
        Lsn with { Name = "differential_base_lsn" },
        new ResultColumn("differential_base_guid", SqlType.UniqueIdentifier),
        new ResultColumn("compressed_backup_size", SqlType.Numeric, Precision: 20),
        ResultColumn.NVarChar("key_algorithm", 32),
        new ResultColumn("encryptor_thumbprint", SqlType.VarBinary, MaxLength: 20),
        ResultColumn.NVarChar("encryptor_type", 32),
        new(new ResultColumn("last_valid_restore_time", SqlType.DateTime), Sql2022),
        new(ResultColumn.NVarChar("compression_algorithm", 32), Sql2022),
    ]);

    public override string Name => "backupset";

    public override string Schema => "dbo";

    public override string? HomeDatabase => "msdb";

    public override int ObjectId => 1_000_001;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Documented.On(CatalogMajor(profile));

    public override bool HasColumnOnSomeBuild(string column) => Documented.IsOnSomeBuild(column);

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var instance = session.Instance;
        var major = CatalogMajor(session.Profile);
        var version = Version.Parse(session.Profile.ProductVersion);
        var databases = DatabaseLayout.For(instance);
        return instance.Backups.Select((b, i) =>
        {
            var database = databases.FirstOrDefault(d => string.Equals(d.Name, b.Database, StringComparison.OrdinalIgnoreCase));
            var finish = ServerClock.Local(instance, b.Finish);
            return Documented.Row(major,
            [
                i + 1, SetGuid(i + 1, 1), i + 1, (byte)1, (short)1, (byte)1, (short)1, (byte)1, (short)1, 1, null, 4608,
                null, null, "sa", (byte)version.Major, (byte)version.Minor, (short)version.Build,
                (short)(ServerClock.OffsetAt(instance, b.Start).TotalMinutes / 15), (byte)0, null, null, null, null,
                ServerClock.Local(instance, instance.LastStartupTime), ServerClock.Local(instance, b.Start), finish, b.Type,
                (short)52, (short)1252, (byte)(Math.Min(version.Major, 17) * 10), null, b.BackupSize, b.Database,
                ServerIdentity.ServerName(instance), ServerIdentity.MachineName(instance), 512, 1033, 196609,
                "SQL_Latin1_General_CP1_CI_AS", false, database?.RecoveryModel, false, false, false, false, false, false,
                false, false, false, false, null, null, null, SetGuid(database?.Id ?? 0, 2), SetGuid(database?.Id ?? 0, 3),
                null, null, b.CompressedBackupSize, "NO_Encryption", null, null, finish, "MS_XPRESS",
            ]);
        });
    }

    /// <summary>Stable GUIDs per backup set or database, so repeated reads agree.</summary>
    private static Guid SetGuid(int id, short kind) => new(id, kind, 0x4000, [0x80, 0, 0, 0, 0, 0, 0, 3]);
}

using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.dm_database_encryption_keys: a row per database with a database encryption key, and tempdb (encrypted) as
/// soon as any database uses TDE, as SQL Server does. Every documented column in the documented order; the key's
/// dates are the service start, the encryptor a certificate, no scan running.
/// </summary>
internal sealed class DatabaseEncryptionKeysTable : VirtualTable
{
    private const int TempdbId = 2;
    private const int Encrypted = 3;

    // "sys.dm_database_encryption_keys (Transact-SQL)",
    // learn.microsoft.com/sql/relational-databases/system-dynamic-management-views/sys-dm-database-encryption-keys-transact-sql
    private static readonly DocumentedColumns Documented = new(
    [
        new ResultColumn("database_id", SqlType.Int, Nullable: false),
        new ResultColumn("encryption_state", SqlType.Int),
        new ResultColumn("create_date", SqlType.DateTime, Nullable: false),
        new ResultColumn("regenerate_date", SqlType.DateTime, Nullable: false),
        new ResultColumn("modify_date", SqlType.DateTime, Nullable: false),
        new ResultColumn("set_date", SqlType.DateTime, Nullable: false),
        new ResultColumn("opened_date", SqlType.DateTime, Nullable: false),
        ResultColumn.NVarChar("key_algorithm", 32, nullable: false),
        new ResultColumn("key_length", SqlType.Int, Nullable: false),
        new ResultColumn("encryptor_thumbprint", SqlType.VarBinary, MaxLength: 20),
        ResultColumn.NVarChar("encryptor_type", 32),
        new ResultColumn("percent_complete", SqlType.Real, Nullable: false),
        new(ResultColumn.NVarChar("encryption_state_desc", 32), Sql2019),
        new(new ResultColumn("encryption_scan_state", SqlType.Int), Sql2019),
        new(ResultColumn.NVarChar("encryption_scan_state_desc", 32), Sql2019),
        new(new ResultColumn("encryption_scan_modify_date", SqlType.DateTime), Sql2019),
    ]);

    private const int Sql2019 = 15;

    private static readonly string[] StateNames =
    [
        "NONE", "UNENCRYPTED", "ENCRYPTION_IN_PROGRESS", "ENCRYPTED", "KEY_CHANGE_IN_PROGRESS", "DECRYPTION_IN_PROGRESS",
        "PROTECTION_CHANGE_IN_PROGRESS",
    ];

    public override string Name => "dm_database_encryption_keys";

    public override int ObjectId => -1006;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Documented.On(CatalogMajor(profile));

    public override bool HasColumnOnSomeBuild(string column) => Documented.IsOnSomeBuild(column);

    // Same split as sys.dm_server_services: VIEW SERVER STATE up to 2019, VIEW SERVER SECURITY STATE from 2022.
    // [U] Azure SQL Database asks for VIEW DATABASE STATE instead; it is not checked there.
    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session)
    {
        var permission = session.Profile.ServerServicesPermission;
        return session.Profile.IsAzureSqlDatabase || Permissions.HasAny(session, permission)
            ? null
            : SqlErrors.PermissionDenied(permission);
    }

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var databases = DatabaseLayout.For(session.Instance);
        var keyed = databases.Where(d => d.EncryptionState > 0).ToList();
        if (keyed.Any(d => d.IsEncrypted) && keyed.All(d => d.Id != TempdbId))
        {
            keyed.Add(databases.First(d => d.Id == TempdbId) with { EncryptionState = Encrypted });
        }

        var major = CatalogMajor(session.Profile);
        // The key's dates are in UTC, unlike most of the catalog.
        var keyDate = session.Instance.LastStartupTime.UtcDateTime;
        return keyed.OrderBy(d => d.Id).Select(d => Documented.Row(major,
        [
            d.Id, d.EncryptionState, keyDate, keyDate, keyDate, keyDate, keyDate, "AES", 256, Thumbprint(d.Id),
            "CERTIFICATE", d.EncryptionState is 3 or 1 ? 0f : 50f,
            StateNames[Math.Clamp(d.EncryptionState, 0, StateNames.Length - 1)],
            ScanState(d.EncryptionState), ScanStateNames[ScanState(d.EncryptionState)], keyDate,
        ]));
    }

    private static readonly string[] ScanStateNames = ["NONE", "RUNNING", "SUSPENDED", "ABORTED", "COMPLETE"];

    private static int ScanState(int encryptionState) => encryptionState switch { 3 => 4, 0 or 1 => 0, _ => 1 };

    /// <summary>A stable 20-byte thumbprint per database's encryptor, so repeated reads agree.</summary>
    private static byte[] Thumbprint(int databaseId)
    {
        var thumbprint = new byte[20];
        thumbprint[0] = (byte)databaseId;
        thumbprint[19] = 0xDE;
        return thumbprint;
    }
}

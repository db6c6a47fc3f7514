using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.dm_database_encryption_keys: a row per database with a database encryption key, and tempdb (encrypted) as
/// soon as any database uses TDE, as SQL Server does. percent_complete is real, a type the simulator cannot send, so
/// it is left out.
/// </summary>
internal sealed class DatabaseEncryptionKeysTable : VirtualTable
{
    private const int TempdbId = 2;
    private const int Encrypted = 3;

    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("database_id", SqlType.Int, Nullable: false),
        new("encryption_state", SqlType.Int),
        ResultColumn.NVarChar("key_algorithm", 32, nullable: false),
        new("key_length", SqlType.Int, Nullable: false),
    ];

    public override string Name => "dm_database_encryption_keys";

    public override int ObjectId => -1006;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

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

        return keyed.OrderBy(d => d.Id).Select(d => new object?[] { d.Id, d.EncryptionState, "AES", 256 });
    }
}

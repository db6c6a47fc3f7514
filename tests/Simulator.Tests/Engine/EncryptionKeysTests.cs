using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class EncryptionKeysTests
{
    private const string Query = "SELECT database_id, encryption_state, key_algorithm, key_length FROM sys.dm_database_encryption_keys";

    private static void TwoDatabases(ScenarioInstance instance) => instance.Databases =
    [
        new ScenarioDatabase { Name = "Payroll", EncryptionState = 3 },
        new ScenarioDatabase { Name = "Plain" },
        new ScenarioDatabase { Name = "Migrating", EncryptionState = 2 },
    ];

    [Fact]
    public void Encryption_keys_list_tde_databases_and_tempdb_encrypted_with_them()
    {
        var result = new EngineHarness("2019", TwoDatabases).Query(Query + " ORDER BY database_id");

        Assert.Equal(new object?[] { 2, 5, 7 }, result.ColumnValues("database_id"));
        Assert.Equal(new object?[] { 3, 3, 2 }, result.ColumnValues("encryption_state"));
        Assert.Equal(new object?[] { "AES", 256 }, result.Rows[0][2..]);
    }

    [Fact]
    public void Encryption_keys_are_empty_without_tde()
    {
        Assert.Empty(new EngineHarness("2019").Query(Query).Rows);
    }

    [Theory]
    [InlineData("database_id", SqlType.Int, 0, false)]
    [InlineData("encryption_state", SqlType.Int, 0, true)]
    [InlineData("key_algorithm", SqlType.NVarChar, 32, false)]
    [InlineData("key_length", SqlType.Int, 0, false)]
    public void Encryption_keys_columns_are_typed_as_sql_server_types_them(string name, SqlType type, int maxLength, bool nullable)
    {
        var column = new EngineHarness("2019").Query("SELECT * FROM sys.dm_database_encryption_keys").Column(name);

        Assert.Equal((type, maxLength, nullable), (column.Type, column.MaxLength, column.Nullable));
    }

    [Theory]
    [InlineData("2019", "VIEW SERVER STATE", true)]
    [InlineData("2019", "ALTER TRACE", false)]
    [InlineData("2022", "VIEW SERVER SECURITY STATE", true)]
    [InlineData("2022", "VIEW SERVER STATE", false)]
    public void Encryption_keys_need_the_server_state_permission_of_the_build(string profile, string permission, bool allowed)
    {
        var items = new EngineHarness(profile, TwoDatabases, permission).Run(Query).Items;

        if (allowed)
        {
            Assert.IsType<ResultSet>(Assert.Single(items));
        }
        else
        {
            Assert.Equal([300, 297], items.OfType<SqlMessage>().Select(m => m.Number));
        }
    }
}

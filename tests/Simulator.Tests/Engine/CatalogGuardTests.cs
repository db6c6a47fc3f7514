using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class CatalogGuardTests
{
    private const string Guard =
        "SELECT name FROM sys.all_columns WHERE object_id = OBJECT_ID(N'sys.dm_server_services') " +
        "AND name = N'instant_file_initialization_enabled'";

    [Theory]
    [InlineData("2012-SP3", 0)]
    [InlineData("2012-SP4", 1)]
    [InlineData("2014-SP2", 0)]
    [InlineData("2014-SP3", 1)]
    [InlineData("2016-RTM", 0)]
    [InlineData("2016-SP1", 1)]
    [InlineData("2017", 1)]
    [InlineData("2022", 1)]
    [InlineData("azure-sql-db", 0)]
    public void Ifi_guard_query_finds_the_column_only_on_builds_that_have_it(string profile, int expectedRows)
    {
        var result = new EngineHarness(profile).Query(Guard);

        Assert.Equal(expectedRows, result.Rows.Count);
        var column = Assert.Single(result.Columns);
        Assert.Equal(("name", SqlType.NVarChar, 128), (column.Name, column.Type, column.MaxLength));
    }

    [Theory]
    [InlineData("2019", "N'master.sys.dm_server_services'", 12)]
    [InlineData("2012-SP3", "N'sys.dm_server_services'", 11)]
    [InlineData("2019", "'[sys].[dm_server_services]'", 12)]
    [InlineData("2019", "N'sys.no_such_view'", 0)]
    [InlineData("azure-sql-db", "N'sys.dm_server_services'", 0)]
    public void Count_of_service_columns_reflects_the_build(string profile, string name, int expected)
    {
        var result = new EngineHarness(profile).Query($"SELECT COUNT(*) FROM sys.all_columns WHERE object_id = OBJECT_ID({name});");

        var column = Assert.Single(result.Columns);
        Assert.Equal(("", SqlType.Int), (column.Name, column.Type));
        Assert.Equal(expected, Assert.Single(result.Rows)[0]);
    }

    [Fact]
    public void Count_can_be_cast_and_aliased()
    {
        var result = new EngineHarness("2019").Query(
            "SELECT CAST(COUNT(*) AS bigint) AS columns FROM sys.all_columns WHERE object_id = OBJECT_ID(N'sys.databases')");

        Assert.Equal((SqlType.BigInt, "columns"), (result.Columns[0].Type, result.Columns[0].Name));
        // sys.databases' documented columns but is_ledger_on, which came with 2022.
        Assert.Equal(86L, Assert.Single(result.Rows)[0]);
    }

    [Fact]
    public void Object_id_of_an_unknown_name_is_null_not_an_error()
    {
        var harness = new EngineHarness("2019");

        Assert.Null(harness.Scalar("SELECT OBJECT_ID(N'sys.no_such_view')"));
        Assert.Empty(harness.Log);
    }

    [Fact]
    public void Object_ids_are_negative_and_stable_across_spellings()
    {
        var row = Assert.Single(new EngineHarness("2019").Query(
            "SELECT OBJECT_ID(N'sys.dm_server_services'), OBJECT_ID(N'master.sys.dm_server_services'), " +
            "OBJECT_ID(N'[sys].[dm_server_services]'), OBJECT_ID(N'sys.databases')").Rows);

        var id = Assert.IsType<int>(row[0]);
        Assert.True(id < 0);
        Assert.Equal(new object?[] { id, id, id }, row[..3]);
        Assert.NotEqual(id, row[3]);
    }

    [Fact]
    public void Databases_lists_the_system_databases_with_their_types()
    {
        var result = new EngineHarness("2019").Query("SELECT * FROM master.sys.databases ORDER BY database_id");

        Assert.Equal(new object?[] { "master", "tempdb", "model", "msdb" }, result.ColumnValues("name"));
        Assert.False(result.Column("name").Nullable);
        Assert.Equal((SqlType.NVarChar, 60, true), (result.Column("state_desc").Type, result.Column("state_desc").MaxLength,
            result.Column("state_desc").Nullable));
    }
}

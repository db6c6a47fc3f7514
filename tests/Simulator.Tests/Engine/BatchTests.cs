using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class BatchTests
{
    [Fact]
    public void Set_nocount_then_selects_give_a_done_and_one_result_set_per_select()
    {
        var items = new EngineHarness().Run("""
            SET NOCOUNT ON;
            SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS ProductVersion;
            SELECT name FROM sys.databases WHERE database_id = 1
            """).Items;

        Assert.Collection(items,
            i => Assert.IsType<StatementDone>(i),
            i => Assert.Equal("15.0.4385.2", Assert.IsType<ResultSet>(i).Rows[0][0]),
            i => Assert.Equal("master", Assert.IsType<ResultSet>(i).Rows[0][0]));
    }

    [Theory]
    [InlineData("SET NOCOUNT ON\nSELECT 1\nSELECT 2", 3)]
    [InlineData("SET ANSI_NULLS, QUOTED_IDENTIFIER ON; SET LOCK_TIMEOUT 5000; SELECT 1;", 3)]
    [InlineData("SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED; SET DEADLOCK_PRIORITY LOW; SELECT 1", 3)]
    [InlineData(";;SELECT 1;;", 1)]
    public void Statements_need_no_separator_beyond_a_newline_or_semicolon(string sql, int expectedItems)
    {
        var harness = new EngineHarness();

        var items = harness.Run(sql).Items;

        Assert.Equal(expectedItems, items.Count);
        Assert.DoesNotContain(items, i => i is SqlMessage);
        Assert.IsType<ResultSet>(items[^1]);
    }

    [Fact]
    public void Comments_brackets_aliases_and_three_part_names_are_understood()
    {
        var result = new EngineHarness().Query("""
            /* outer /* nested */ comment */
            select d.[name] -- the name
              from [master].[sys].[databases] as d
             where d.name = N'msdb' and [database_id] >= 4;
            """);

        Assert.Equal(new object?[] { "msdb" }, Assert.Single(result.Rows));
        Assert.Equal("name", result.Columns[0].Name);
    }

    [Fact]
    public void A_permission_error_ends_its_statement_but_not_the_batch()
    {
        var items = new EngineHarness("2019", permissions: "VIEW ANY DATABASE")
            .Run("SELECT servicename FROM sys.dm_server_services; SELECT 1 AS still_running").Items;

        Assert.Equal([300, 297], items.OfType<SqlMessage>().Select(m => m.Number));
        Assert.Equal(1, Assert.IsType<ResultSet>(items[^1]).Rows[0][0]);
    }

    [Fact]
    public void Sp_executesql_parameters_are_bound_by_name()
    {
        var parameters = new Dictionary<string, object?> { ["@pid"] = 4242, ["@name"] = "SQL Server%" };

        var result = new EngineHarness().Query(
            "SELECT servicename FROM sys.dm_server_services WHERE process_id = @pid AND servicename LIKE @NAME", parameters);

        Assert.Equal(new object?[] { "SQL Server (MSSQLSERVER)" }, result.ColumnValues("servicename"));
    }

    [Theory]
    [InlineData("SELECT name FROM sys.databases ORDER BY name", new[] { "master", "model", "msdb", "tempdb" })]
    [InlineData("SELECT TOP (2) name FROM sys.databases ORDER BY database_id DESC", new[] { "msdb", "model" })]
    [InlineData("SELECT TOP 1 name AS n FROM sys.databases ORDER BY n DESC", new[] { "tempdb" })]
    [InlineData("SELECT name FROM sys.databases WHERE database_id IN (1, 4) ORDER BY 1", new[] { "master", "msdb" })]
    [InlineData("SELECT name FROM sys.databases WHERE name NOT IN (N'master', N'MODEL') ORDER BY database_id", new[] { "tempdb", "msdb" })]
    [InlineData("SELECT name FROM sys.databases WHERE name LIKE 'ms_%'", new[] { "msdb" })]
    [InlineData("SELECT name FROM sys.databases WHERE database_id > '2' AND state_desc IS NOT NULL", new[] { "model", "msdb" })]
    [InlineData("SELECT name FROM sys.databases WHERE name <> 'TEMPDB' AND database_id != 1", new[] { "model", "msdb" })]
    [InlineData("SELECT name FROM sys.databases WHERE state_desc IS NULL", new string[0])]
    [InlineData("SELECT name FROM sys.databases WHERE database_id = NULL", new string[0])]
    public void Where_order_by_and_top_filter_and_sort_rows(string sql, string[] expected)
    {
        var result = new EngineHarness().Query(sql);

        Assert.Equal(expected, result.Rows.Select(r => (string?)r[0]));
    }

    [Fact]
    public void Order_by_applies_every_key_in_turn()
    {
        var result = new EngineHarness("2019").Query(
            "SELECT servicename FROM sys.dm_server_services ORDER BY cluster_nodename, startup_type DESC, servicename");

        Assert.Equal(
            new[]
            {
                "SQL Full-text Filter Daemon Launcher (MSSQLSERVER)", "SQL Server (MSSQLSERVER)",
                "SQL Server Agent (MSSQLSERVER)", "SQL Server Launchpad (MSSQLSERVER)",
            },
            result.Rows.Select(r => (string?)r[0]));
    }

    [Theory]
    [InlineData(null, 1, -1)]
    [InlineData(1, null, 1)]
    [InlineData(null, null, 0)]
    [InlineData("b", "A", 1)]
    [InlineData(10, "9", 1)]
    public void Order_by_sorts_nulls_first_and_compares_like_sql_server(object? left, object? right, int expectedSign)
    {
        Assert.Equal(expectedSign, Math.Sign(IfiDashboard.Simulator.Engine.Binding.SqlCompare.CompareForSort(left, right)));
    }

    [Fact]
    public void String_literals_unescape_quotes_and_keep_their_length()
    {
        var result = new EngineHarness().Query("SELECT N'it''s' AS a, 'x' b, 42 c, NULL d");

        Assert.Equal(new object?[] { "it's", "x", 42, null }, Assert.Single(result.Rows));
        Assert.Equal((SqlType.NVarChar, 4, false), (result.Columns[0].Type, result.Columns[0].MaxLength, result.Columns[0].Nullable));
        Assert.Equal((SqlType.Int, true), (result.Columns[3].Type, result.Columns[3].Nullable));
    }

    [Fact]
    public void Count_with_a_plain_column_is_rejected_like_sql_server()
    {
        var error = Assert.Single(new EngineHarness().Errors("SELECT name, COUNT(*) FROM sys.databases"));

        Assert.Equal(8120, error.Number);
    }

    [Fact]
    public void Conversion_failures_answer_245()
    {
        var error = Assert.Single(new EngineHarness().Errors("SELECT CAST(SERVERPROPERTY('Edition') AS int)"));

        Assert.Equal((245, "Conversion failed when converting the nvarchar value 'Developer Edition (64-bit)' to data type int."),
            (error.Number, error.Text));
    }
}

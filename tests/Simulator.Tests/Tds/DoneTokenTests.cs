using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>DONE tokens carry each SELECT's row count and say whether more results follow.</summary>
public sealed class DoneTokenTests
{
    [Fact]
    public async Task Select_reports_its_row_count_to_statement_completed_but_not_as_records_affected()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("SELECT servicename FROM sys.dm_server_services", connection);
        var counts = new List<int>();
        command.StatementCompleted += (_, e) => counts.Add(e.RecordCount);

        var affected = await command.ExecuteNonQueryAsync();

        // 2019 on Windows reports four services. SQL Server marks the DONE of a SELECT with CURCMD 0xC1, which
        // SqlClient does not count as rows affected: ExecuteNonQuery of a SELECT returns -1.
        Assert.Equal([4], counts);
        Assert.Equal(-1, affected);
    }

    [Fact]
    public async Task Connection_statistics_count_the_rows_selected()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        connection.StatisticsEnabled = true;
        await using (var command = new SqlCommand("SELECT name FROM sys.databases", connection))
        await using (var reader = await command.ExecuteReaderAsync())
        {
            while (await reader.ReadAsync())
            {
            }
        }

        var statistics = connection.RetrieveStatistics();

        Assert.Equal(4L, statistics["SelectRows"]);
        Assert.Equal(1L, statistics["SelectCount"]);
    }

    [Fact]
    public async Task Batch_with_set_and_two_selects_gives_two_result_sets_through_next_result()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("""
            SET NOCOUNT ON;
            SELECT name FROM sys.databases ORDER BY name;
            SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS v
            """, connection);
        await using var reader = await command.ExecuteReaderAsync();

        var names = new List<string>();
        while (await reader.ReadAsync()) names.Add(reader.GetString(0));
        Assert.True(await reader.NextResultAsync());
        Assert.True(await reader.ReadAsync());
        var version = reader.GetString(0);
        Assert.False(await reader.NextResultAsync());

        Assert.Equal(["master", "model", "msdb", "tempdb"], names);
        Assert.Equal("15.0.4385.2", version);
    }

    [Fact]
    public async Task Parameterised_batch_of_two_selects_gives_two_result_sets_inside_the_rpc()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("SELECT @a AS a; SELECT @b AS b", connection);
        command.Parameters.AddWithValue("@a", 1);
        command.Parameters.AddWithValue("@b", "two");
        var counts = new List<int>();
        command.StatementCompleted += (_, e) => counts.Add(e.RecordCount);
        await using var reader = await command.ExecuteReaderAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Equal(1, reader.GetInt32(0));
        Assert.True(await reader.NextResultAsync());
        Assert.True(await reader.ReadAsync());
        Assert.Equal("two", reader.GetString(0));
        Assert.False(await reader.NextResultAsync());
        await reader.CloseAsync();
        Assert.Equal([1, 1], counts);
    }
}

using Dapper;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>Errors arrive as SqlException with SQL Server's numbers and leave the connection usable.</summary>
public sealed class ErrorAndMessageTests
{
    [Theory]
    [InlineData("SELECT * FROM sys.no_such_view", 208, 16)]
    [InlineData("SELEC 1", 102, 15)]
    [InlineData("SELECT no_such_column FROM sys.databases", 207, 16)]
    public async Task Failed_batch_is_a_sql_exception_with_the_engine_number_and_the_connection_stays_usable(
        string sql, int number, byte severity)
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        var error = await Assert.ThrowsAsync<SqlException>(() => connection.ExecuteScalarAsync<int>(sql));

        Assert.Equal(number, error.Number);
        Assert.Equal(severity, error.Class);
        Assert.Equal(System.Data.ConnectionState.Open, connection.State);
        Assert.Equal(1, await connection.ExecuteScalarAsync<int>("SELECT 1"));
    }

    [Fact]
    public async Task Failed_rpc_is_a_sql_exception_and_the_next_rpc_works()
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        var error = await Assert.ThrowsAsync<SqlException>(
            () => connection.ExecuteScalarAsync<int>("SELECT x FROM sys.nothing WHERE a = @a", new { a = 1 }));

        Assert.Equal(208, error.Number);
        Assert.Equal(7, await connection.ExecuteScalarAsync<int>("SELECT @a AS a", new { a = 7 }));
    }

    [Fact]
    public async Task Set_nocount_batch_completes_without_error_or_result()
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        var messages = new List<SqlError>();
        connection.InfoMessage += (_, e) => messages.AddRange(e.Errors.Cast<SqlError>());
        await using var command = new SqlCommand("SET NOCOUNT ON", connection);

        Assert.Equal(-1, await command.ExecuteNonQueryAsync());
        Assert.Empty(messages);
    }

    [Fact]
    public async Task Permission_error_ends_its_statement_but_later_statements_of_the_batch_still_answer()
    {
        await using var fleet = TestFleet.StartOne("2019", i =>
            i.Logins = [new() { Name = TestFleet.Login, Password = TestFleet.Password, Permissions = ["ALTER TRACE"] }]);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand(
            "SELECT servicename FROM sys.dm_server_services; SELECT name FROM sys.databases", connection);

        var error = await Assert.ThrowsAsync<SqlException>(async () =>
        {
            await using var reader = await command.ExecuteReaderAsync();
            while (await reader.NextResultAsync())
            {
            }
        });

        Assert.Equal([300, 297], error.Errors.Cast<SqlError>().Select(e => e.Number));
        Assert.Equal(1, await connection.ExecuteScalarAsync<int>("SELECT 1"));
    }
}

using System.Data;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// Well-formed requests the collector does not send today still get SQL Server's kind of answer, a result or an error
/// token, on a connection that stays open: a procedure called by RPC name, an unknown one and sp_executesql
/// parameters of types time, char and binary (prepared statements: RpcProcedureTests).
/// </summary>
public sealed class RpcConformanceTests
{
    static async Task AssertStillOpenAsync(SqlConnection connection)
    {
        Assert.Equal(ConnectionState.Open, connection.State);
        await using var check = new SqlCommand("SELECT CAST(SERVERPROPERTY('ProcessID') AS int)", connection);
        Assert.IsType<int>(await check.ExecuteScalarAsync());
    }

    [Fact]
    public async Task Procedure_called_by_rpc_name_answers_its_rows()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.IfiEnabled = true);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("sp_readerrorlog", connection) { CommandType = CommandType.StoredProcedure };
        command.Parameters.AddWithValue("@p1", 0);
        command.Parameters.AddWithValue("@p2", 1);
        command.Parameters.AddWithValue("@p3", "Instant File Initialization");

        await using var reader = await command.ExecuteReaderAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Contains("Database Instant File Initialization: enabled", reader.GetString(2), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("sp_no_such_procedure")]
    [InlineData("dbo.usp_inventory")]
    public async Task Unknown_procedure_by_rpc_is_msg_2812_on_an_open_connection(string procedure)
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand(procedure, connection) { CommandType = CommandType.StoredProcedure };

        var error = await Assert.ThrowsAsync<SqlException>(() => command.ExecuteNonQueryAsync());

        Assert.Equal(2812, error.Number);
        await AssertStillOpenAsync(connection);
    }

    [Theory]
    [InlineData(SqlDbType.Char)]
    [InlineData(SqlDbType.Binary)]
    [InlineData(SqlDbType.Time)]
    public async Task Parameters_of_time_char_and_binary_are_read(SqlDbType type)
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("SELECT name FROM sys.databases WHERE database_id = @id AND @x IS NOT NULL", connection);
        command.Parameters.Add("@id", SqlDbType.Int).Value = 1;
        command.Parameters.Add("@x", type).Value = type switch
        {
            SqlDbType.Char => "abc",
            SqlDbType.Binary => new byte[] { 1, 2, 3 },
            _ => new TimeSpan(6, 30, 0),
        };

        Assert.Equal("master", await command.ExecuteScalarAsync());
        await AssertStillOpenAsync(connection);
    }
}

using System.Data;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// The system procedures clients call over RPC, as their Transact-SQL reference pages define them: sp_prepare returns
/// its handle as an output parameter, sp_execute runs it with values by position, sp_executesql matches unnamed values
/// to @params by position, and an unknown procedure is an error token on a connection that stays open.
/// </summary>
public sealed class RpcProcedureTests
{
    private const string DatabaseById = "SELECT name FROM sys.databases WHERE database_id = ?";

    // "sp_prepare (Transact-SQL)": handle is an int output parameter; "sp_execute": handle, then the bound values.
    // jTDS prepares with sp_prepare (its default prepareSQL=3) and executes with sp_execute.
    [Fact]
    public async Task Jtds_prepared_statement_runs_twice_through_its_handle()
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];

        var result = await ScriptedClient.JtdsAsync(instance.Port, $"prepare {DatabaseById}\nint id 1\nexecute\nint id 2\nexecute\n");

        Assert.Empty(result.Errors);
        Assert.Equal(["master", "tempdb"], result.ResultSets.Select((_, i) => result.FirstRow(i)[0]));
        Assert.Contains("sp_prepare", instance.Transcript.TextsOf(TranscriptKinds.Rpc));
    }

    // "sp_executesql (Transact-SQL)": the values follow @params in the order the parameters are declared there.
    [Theory]
    [InlineData("jtds")]
    [InlineData("dblib")]
    public async Task Sp_executesql_matches_unnamed_values_by_position(string client)
    {
        await using var fleet = TestFleet.StartOne("2019");
        var port = fleet["sql"].Port;

        var result = client == "jtds"
            ? await ScriptedClient.JtdsAsync(port, "call {call sp_executesql(?, ?, ?, ?)}\n"
                + "string stmt SELECT name FROM sys.databases WHERE database_id = @id AND name <> @not\n"
                + "string params @id int, @not nvarchar(128)\nint id 4\nstring not tempdb\nexecute\n")
            : await ScriptedClient.DbLibAsync(port, "call sp_executesql\n"
                + "string stmt SELECT name FROM sys.databases WHERE database_id = @id AND name <> @not\n"
                + "string params @id int, @not nvarchar(128)\nint id 4\nstring not tempdb\nexecute\n");

        Assert.Empty(result.Errors);
        Assert.Equal("msdb", result.FirstRow(0)[0]);
    }

    // An unknown procedure is Msg 2812 "Could not find stored procedure"; the next batch is answered.
    [Theory]
    [InlineData("jtds")]
    [InlineData("dblib")]
    public async Task Unknown_procedure_is_msg_2812_and_the_connection_answers_on(string client)
    {
        await using var fleet = TestFleet.StartOne("2019");
        var port = fleet["sql"].Port;
        const string Rest = "int a 1\nexecute\nsql SELECT DB_NAME() AS d\n";

        var result = client == "jtds"
            ? await ScriptedClient.JtdsAsync(port, "call {call usp_no_such(?)}\n" + Rest)
            : await ScriptedClient.DbLibAsync(port, "call usp_no_such\n" + Rest);

        Assert.Equal([2812], result.Errors);
        Assert.Equal("master", result.FirstRow(0)[0]);
    }

    // sp_execute of a handle the connection never prepared (or unprepared) is Msg 8179.
    [Fact]
    public async Task Sp_execute_of_an_unknown_handle_is_msg_8179()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await ScriptedClient.DbLibAsync(fleet["sql"].Port, "call sp_execute\nint handle 99\nexecute\nsql SELECT 1 AS one\n");

        Assert.Equal([8179], result.Errors);
        Assert.Equal("1", result.FirstRow(0)[0]);
    }

    // SqlCommand.Prepare: the first execution is sp_prepexec (handle as output parameter), later ones sp_execute.
    [Fact]
    public async Task SqlClient_prepared_command_runs_through_prepexec_and_execute()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("SELECT name FROM sys.databases WHERE database_id = @id", connection);
        command.Parameters.Add("@id", SqlDbType.Int);
        command.Prepare();

        command.Parameters["@id"].Value = 1;
        var first = await command.ExecuteScalarAsync();
        command.Parameters["@id"].Value = 3;
        var second = await command.ExecuteScalarAsync();

        Assert.Equal(("master", "model"), (first, second));
    }
}

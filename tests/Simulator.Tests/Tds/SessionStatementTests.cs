using System.Data;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// What clients run after login: the configuration functions, USE and the transaction statements, answered as the
/// Transact-SQL reference documents them, through jTDS and pymssql (FreeTDS db-lib), two clients written
/// independently of Microsoft's, and SqlClient's own transaction requests.
/// </summary>
public sealed class SessionStatementTests
{
    public static TheoryData<string> Clients => ["jtds", "dblib"];

    private static Task<ScriptedClient.Result> RunAsync(string client, int port, string script) =>
        client == "jtds" ? ScriptedClient.JtdsAsync(port, script) : ScriptedClient.DbLibAsync(port, script);

    // "@@MAX_PRECISION (Transact-SQL)": tinyint, 38 by default; "@@LANGID": 0 for us_english; "@@MAX_CONNECTIONS":
    // 32767 with the default setting; "@@DATEFIRST": 7 for us_english; "@@LOCK_TIMEOUT": -1 until SET LOCK_TIMEOUT.
    [Theory]
    [MemberData(nameof(Clients))]
    public async Task Configuration_functions_clients_read_at_login_answer_the_documented_defaults(string client)
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await RunAsync(client, fleet["sql"].Port,
            "sql SELECT @@MAX_PRECISION AS p, @@LANGID AS l, @@MAX_CONNECTIONS AS c, @@DATEFIRST AS f, @@LOCK_TIMEOUT AS t, @@MICROSOFTVERSION AS v\n");

        Assert.Equal(["38", "0", "32767", "7", "-1", ((15 << 24) | 4385).ToString(System.Globalization.CultureInfo.InvariantCulture)], result.FirstRow(0));
        Assert.Empty(result.Errors);
    }

    // "USE (Transact-SQL)": the database context changes and DB_NAME() returns it; an unknown database is Msg 911.
    [Theory]
    [MemberData(nameof(Clients))]
    public async Task Use_changes_the_database_that_db_name_returns(string client)
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await RunAsync(client, fleet["sql"].Port,
            "sql USE [msdb]\nsql SELECT DB_NAME() AS d\nsql USE no_such_database\nsql SELECT DB_NAME() AS d\n");

        Assert.Equal("msdb", result.FirstRow(0)[0]);
        Assert.Equal([911], result.Errors);
        Assert.Equal("msdb", result.FirstRow(1)[0]);
    }

    // "BEGIN TRANSACTION": increments @@TRANCOUNT by 1; "COMMIT TRANSACTION": decrements it by 1; "ROLLBACK
    // TRANSACTION": decrements it to 0; without a transaction COMMIT is Msg 3902 ("@@TRANCOUNT (Transact-SQL)").
    [Theory]
    [MemberData(nameof(Clients))]
    public async Task Transaction_statements_count_in_trancount(string client)
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await RunAsync(client, fleet["sql"].Port, string.Join('\n',
            "sql BEGIN TRAN", "sql BEGIN TRANSACTION outer_work", "sql SELECT @@TRANCOUNT AS n",
            "sql COMMIT", "sql SELECT @@TRANCOUNT AS n",
            "sql ROLLBACK TRANSACTION", "sql SELECT @@TRANCOUNT AS n",
            "sql COMMIT TRAN", "sql IF @@TRANCOUNT > 0 COMMIT TRAN", "sql SELECT @@TRANCOUNT AS n", ""));

        Assert.Equal(["2", "1", "0", "0"], result.ResultSets.Select((_, i) => result.FirstRow(i)[0]));
        Assert.Equal([3902], result.Errors);
    }

    // tedious sends the set-up as one batch: each statement sees the ones before it.
    [Fact]
    public async Task Tedious_batch_sees_its_use_and_begin_tran()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await TediousClient.RunAsync(fleet["sql"].Port, TestFleet.Login, TestFleet.Password, true,
            "SET NOCOUNT ON; USE [msdb]; BEGIN TRAN; SELECT DB_NAME() AS d, @@TRANCOUNT AS n, @@MAX_PRECISION AS p; ROLLBACK");

        Assert.True(result.Error is null, result.Raw);
        Assert.Equal(["msdb", "1", "38"], Assert.Single(result.Rows).Select(v => v.ToString()));
        Assert.Equal("TinyInt", result.Columns[2].Type);
    }

    // jTDS ends a transaction with "IF @@TRANCOUNT > 0 COMMIT TRAN" after SET IMPLICIT_TRANSACTIONS ON.
    [Fact]
    public async Task Jtds_commits_and_rolls_back_with_autocommit_off()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await ScriptedClient.JtdsAsync(fleet["sql"].Port,
            "autocommit off\nsql BEGIN TRAN\ncommit\nsql BEGIN TRAN\nrollback\nautocommit on\nsql SELECT @@TRANCOUNT AS n\n");

        Assert.Empty(result.Errors);
        Assert.Equal("0", result.FirstRow(0)[0]);
    }

    // SqlConnection.BeginTransaction sends a transaction manager request ([MS-TDS] 2.2.6.9); the server answers with a
    // begin-transaction ENVCHANGE whose descriptor the client sends back with each request in the transaction.
    [Fact]
    public async Task SqlClient_transaction_is_counted_until_it_commits()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        await using (var transaction = (SqlTransaction)await connection.BeginTransactionAsync(IsolationLevel.ReadCommitted))
        {
            await using var inside = new SqlCommand("SELECT @@TRANCOUNT", connection, transaction);
            Assert.Equal(1, await inside.ExecuteScalarAsync());
            await transaction.CommitAsync();
        }

        await using var after = new SqlCommand("SELECT @@TRANCOUNT", connection);
        Assert.Equal(0, await after.ExecuteScalarAsync());
    }
}

using System.Data;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>What SqlClient takes from the login response: LOGINACK's version and the ENVCHANGE tokens.</summary>
public sealed class LoginResponseTests
{
    [Theory]
    [InlineData("2019", "15.00.4385")]
    [InlineData("2012-SP3", "11.00.6020")]
    [InlineData("2025", "17.00.1000")]
    public async Task Login_ack_reports_the_profile_version_and_the_database_is_master(string profile, string serverVersion)
    {
        await using var fleet = TestFleet.StartOne(profile);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        Assert.Equal(serverVersion, connection.ServerVersion);
        Assert.Equal("master", connection.Database);
    }

    [Fact]
    public async Task Login_information_messages_are_swallowed_by_sqlclient_so_only_a_later_batch_raises_info_message()
    {
        // The simulator sends INFO 5701 (database context) and 5703 (language) in the login response, as SQL Server
        // does. SqlClient consumes them while the connection opens and never raises InfoMessage for them; this test
        // pins that down so that nobody builds on seeing them.
        await using var fleet = TestFleet.StartOne();
        await using var connection = new SqlConnection(TestFleet.ConnectionString(fleet["sql"]));
        var messages = new List<int>();
        connection.InfoMessage += (_, e) => messages.AddRange(e.Errors.Cast<SqlError>().Select(m => m.Number));

        await connection.OpenAsync();

        Assert.Equal(ConnectionState.Open, connection.State);
        Assert.Empty(messages);
    }
}

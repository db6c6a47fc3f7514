using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// Windows logins (a scenario login without a password) sign in with integrated security only; the Kerberos exchange
/// itself runs against a real KDC in tests/Collector.Tests/Kerberos.
/// </summary>
public sealed class WindowsLoginTests
{
    [Theory]
    [InlineData("collector@IFI.TEST", @"IFI\collector")]
    [InlineData("svc-ifi@CORP.EXAMPLE.COM", @"CORP\svc-ifi")]
    [InlineData("collector", "collector")]
    public void Kerberos_principal_maps_to_the_windows_login_active_directory_would_name(string principal, string login) =>
        Assert.Equal(login, TdsConnection.WindowsLoginName(principal));

    [Theory]
    [InlineData("")]
    [InlineData("anything")]
    public async Task Windows_login_cannot_be_used_as_a_sql_login_whatever_the_password(string password)
    {
        await using var fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = @"IFI\collector" }],
            Instances = [new ScenarioInstance { Name = "sql", Profile = "2019" }],
        }, _ => { });
        var instance = fleet["sql"];
        await using var connection = new SqlConnection(instance.ConnectionString(@"IFI\collector", password) + ";Pooling=false");

        var error = await Assert.ThrowsAsync<SqlException>(() => connection.OpenAsync());

        Assert.Equal(18456, error.Number);
        Assert.Equal([@"IFI\collector"], instance.Transcript.TextsOf(TranscriptKinds.LoginFailed));
    }
}

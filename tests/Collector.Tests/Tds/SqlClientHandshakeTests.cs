using Dapper;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Tests.Tds;

public sealed class SqlClientHandshakeTests : IAsyncLifetime
{
    FleetSimulator _fleet = null!;
    readonly List<string> _log = [];

    public Task InitializeAsync()
    {
        _fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = "collector", Password = "S3cret!pw" }],
            Instances =
            [
                new ScenarioInstance { Name = "sql2019", Profile = "2019", IfiEnabled = true },
                new ScenarioInstance { Name = "sql2022", Profile = "2022", IfiEnabled = false },
            ],
        }, line => { lock (_log) _log.Add(line); });
        return Task.CompletedTask;
    }

    public async Task DisposeAsync() => await _fleet.DisposeAsync();

    [Theory]
    [InlineData("Mandatory", "full")]
    [InlineData("Optional", "login-only")]
    public async Task SqlClient_reads_the_ifi_column_over_each_encryption_mode(string encrypt, string expectedTls)
    {
        var instance = _fleet["sql2019"];
        await using var connection = new SqlConnection(instance.ConnectionString("collector", "S3cret!pw", encrypt) + ";Pooling=false");
        try { await connection.OpenAsync(); }
        catch (SqlException) { Assert.Fail(string.Join("\n", instance.Transcript.Entries)); }

        var ifi = await connection.QuerySingleAsync<string>(
            "SELECT instant_file_initialization_enabled FROM sys.dm_server_services WHERE servicename LIKE 'SQL Server (%'");

        Assert.Equal("Y", ifi);
        Assert.Contains(expectedTls, instance.Transcript.TextsOf("encryption"));
    }
}

using System.Collections.Concurrent;
using System.Net.Sockets;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>A client that connects and sends nothing, or stops halfway through PRELOGIN, is disconnected and logged.</summary>
public sealed class LoginTimeoutTests
{
    static readonly TimeSpan Bound = TimeSpan.FromSeconds(20);

    [Theory]
    [InlineData(new byte[0])]
    [InlineData(new byte[] { 0x12, 0x01, 0x00, 0x2F })] // the first half of a PRELOGIN header, then silence
    public async Task A_silent_client_is_disconnected_after_the_login_timeout_and_logged(byte[] sent)
    {
        var log = new ConcurrentQueue<string>();
        await using var fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = TestFleet.Login, Password = TestFleet.Password }],
            Instances = [new ScenarioInstance { Name = "sql", Profile = "2019", LoginTimeoutSeconds = 1 }],
        }, log.Enqueue);
        var instance = fleet["sql"];
        using var client = new TcpClient();
        await client.ConnectAsync("127.0.0.1", instance.Port);
        var stream = client.GetStream();
        await stream.WriteAsync(sent);

        // The server's close is what ends this read; the bound only keeps a broken simulator from hanging the run.
        using var bound = new CancellationTokenSource(Bound);
        var read = await stream.ReadAsync(new byte[16], bound.Token);

        Assert.Equal(0, read);
        Assert.Equal(["no login within 1 s of connecting: connection closed"], instance.Transcript.TextsOf(TranscriptKinds.LoginTimeout));
        Assert.Contains(log, l => l.Contains("sql: no login within 1 s", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_logged_in_connection_outlives_the_login_timeout()
    {
        // The answer is held back 10 s by the instance itself, so it comes after the 10 s limit counted from
        // connecting. The login has to finish inside that limit: a cold first TLS login took more than 4 s once, with
        // the test command's five jobs on two cores (load 125), and was then rightly cut off.
        await using var fleet = TestFleet.StartOne("2019", i =>
        {
            i.LoginTimeoutSeconds = 10;
            i.Faults.QueryDelayMs = 10_000;
        });
        var instance = fleet["sql"];
        await using var connection = await TestFleet.OpenAsync(instance);
        await using var command = connection.CreateCommand();
        command.CommandText = "SELECT CAST(SERVERPROPERTY('ProcessID') AS int)";

        Assert.Equal(4242, await command.ExecuteScalarAsync());
        Assert.Empty(instance.Transcript.TextsOf(TranscriptKinds.LoginTimeout));
    }
}

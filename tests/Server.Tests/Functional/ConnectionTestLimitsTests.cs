using System.Globalization;
using System.Net;
using System.Net.Sockets;
using AngleSharp.Html.Dom;
using IfiDashboard.Server.Editing;
using IfiDashboard.Server.Tests.Alerts;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// Test connection is not a port scanner: a closed port, a silent (filtered) one and a listener that is not SQL
/// Server give the same answer, with the difference in the server log only; and each person has a limited number of
/// tests per window.
/// </summary>
public sealed class ConnectionTestLimitsTests
{
    static Dictionary<string, string> Form(int port) => new()
    {
        ["Form.Name"] = "probe-target",
        ["Form.Host"] = "127.0.0.1",
        ["Form.Port"] = port.ToString(CultureInfo.InvariantCulture),
        ["Form.CredentialName"] = SimulatedFleetRegistration.CredentialName,
    };

    /// <summary>
    /// A server without a simulated fleet whose connections give up after two seconds: every connection these tests make
    /// is meant to fail, and SqlClient retries a refused one until its connect timeout ends (30 s in
    /// <see cref="DashboardHost"/>, for polls meant to succeed on a loaded machine).
    /// </summary>
    static DashboardHost QuickToGiveUp()
    {
        var host = new DashboardHost();
        host.Settings["Collector:ConnectTimeoutSeconds"] = "2";
        return host;
    }

    static async Task<IHtmlDocument> TestAsync(HttpClient client, int port) =>
        (await EditingPagesTests.SubmitAsync(client, "/inventory/new", "registration", Form(port), ("Form.Command", "test"))).Page;

    static (string? Outcome, string? Message) Connect(IHtmlDocument page)
    {
        var row = page.QuerySelector("[data-table='test-probes'] tr[data-probe='connect']");
        return (row?.GetAttribute("data-outcome"), row?.QuerySelector("td.message")?.TextContent);
    }

    [Fact]
    public async Task Closed_filtered_and_not_sql_server_give_the_same_answer_and_the_log_tells_them_apart()
    {
        using var logs = new CapturedLogs();
        await using var fleet = QuickToGiveUp();
        await using var host = fleet.WithWebHostBuilder(b => b.ConfigureLogging(l => l.AddProvider(logs)));
        var client = host.CreateClient();
        var closedPort = LoopbackPorts.Unassigned();
        using var silent = new TcpListener(IPAddress.Loopback, 0);
        silent.Start(); // accepts connections (the kernel's backlog) and never answers: as a filtered port looks after the SYN
        using var notSqlServer = new TcpListener(IPAddress.Loopback, 0);
        notSqlServer.Start();
        var answering = AnswerWithHttpAsync(notSqlServer);

        var closed = Connect(await TestAsync(client, closedPort));
        var filtered = Connect(await TestAsync(client, ((IPEndPoint)silent.LocalEndpoint).Port));
        var http = Connect(await TestAsync(client, ((IPEndPoint)notSqlServer.LocalEndpoint).Port));
        notSqlServer.Stop();
        await answering;

        Assert.Equal(("Unreachable", ConnectionTestLimits.NotReached), closed);
        Assert.Equal(closed, filtered);
        Assert.Equal(closed, http);
        var logged = logs.All;
        Assert.Contains($"127.0.0.1:{closedPort}", logged, StringComparison.Ordinal);
        Assert.Contains($"127.0.0.1:{((IPEndPoint)silent.LocalEndpoint).Port}: connect Timeout", logged, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Each_person_runs_a_limited_number_of_tests_per_window()
    {
        await using var host = QuickToGiveUp();
        host.Settings["TestConnection:PermitLimit"] = "2";
        host.Settings["TestConnection:WindowSeconds"] = "3600";
        var client = host.CreateClient();
        var closedPort = LoopbackPorts.Unassigned();

        var first = await TestAsync(client, closedPort);
        var second = await TestAsync(client, closedPort);
        var third = await TestAsync(client, closedPort);

        Assert.NotNull(first.QuerySelector("[data-connection-test]"));
        Assert.NotNull(second.QuerySelector("[data-connection-test]"));
        Assert.Null(third.QuerySelector("[data-connection-test]"));
        Assert.Contains("Too many connection tests: try again in", third.QuerySelector("[data-test-error]")?.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_stored_poll_failure_shows_viewers_and_operators_its_reason_and_only_administrators_the_client_text()
    {
        await using var host = QuickToGiveUp();
        var registered = await host.Services.GetRequiredService<IfiDashboard.Client.Pages.Inventory.IInventoryEditor>().RegisterAsync(
            new IfiDashboard.Shared.Inventory.InstanceRegistration
            {
                Name = "closed-port", Host = "127.0.0.1", Port = LoopbackPorts.Unassigned(), CredentialName = SimulatedFleetRegistration.CredentialName,
            }, CancellationToken.None);
        var id = registered.Id!.Value;
        await host.PollAllAsync();

        async Task<(string? Probe, string? Poll)> ReadAsync(string role)
        {
            var page = new AngleSharp.Html.Parser.HtmlParser().ParseDocument(
                await Security.TestSignIn.AsRole(host.CreateClient(), role).GetStringAsync($"/instances/{id}"));
            return (page.QuerySelector("[data-table='probes'] tr[data-probe='connect'] td.message")?.TextContent,
                page.QuerySelector("[data-table='polls'] tr[data-poll-outcome] td[title]")?.GetAttribute("title"));
        }
        var viewer = await ReadAsync(IfiDashboard.Shared.Security.DashboardRoles.Viewer);
        var @operator = await ReadAsync(IfiDashboard.Shared.Security.DashboardRoles.Operator);
        var administrator = await ReadAsync(IfiDashboard.Shared.Security.DashboardRoles.Administrator);

        Assert.Equal(("unreachable", "unreachable"), viewer);
        Assert.Equal(viewer, @operator);
        Assert.NotNull(administrator.Probe);
        Assert.NotEqual("unreachable", administrator.Probe);
        Assert.NotEqual("unreachable", administrator.Poll);
    }

    // Reads what the client sends (its PRELOGIN) and answers as a web server would.
    static async Task AnswerWithHttpAsync(TcpListener listener)
    {
        try
        {
            using var socket = await listener.AcceptSocketAsync();
            var buffer = new byte[4096];
            await socket.ReceiveAsync(buffer);
            await socket.SendAsync("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"u8.ToArray());
        }
        catch (SocketException)
        {
            // Stopped before a client came: nothing to answer.
        }
        catch (ObjectDisposedException)
        {
        }
    }
}

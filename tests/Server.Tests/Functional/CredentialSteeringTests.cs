using System.Globalization;
using System.Net.Http.Json;
using AngleSharp.Html.Dom;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Server.Tests.Api;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// An attacker who can reach the inventory points an instance at a listener of their own that answers PRELOGIN with
/// "encryption not supported", asks for Encrypt=Optional and names a credential the collector holds. Through the
/// form's Test connection, the form's Register, a CMDB PUT and a CMDB sync, the listener never receives LOGIN7.
/// The credential here allows 127.0.0.1, where the listener is: the worst case, the allow-list does not help.
/// </summary>
public sealed class CredentialSteeringTests
{
    static Dictionary<string, string> BaitForm(int port, string host = "127.0.0.1") => new()
    {
        ["Form.Name"] = "bait",
        ["Form.Host"] = host,
        ["Form.Port"] = port.ToString(CultureInfo.InvariantCulture),
        ["Form.Encrypt"] = "Optional",
        ["Form.CredentialName"] = SimulatedFleetRegistration.CredentialName,
    };

    static async Task<IHtmlDocument> PostFormAsync(HttpClient client, Dictionary<string, string> typed, string command) =>
        (await EditingPagesTests.SubmitAsync(client, "/inventory/new", "registration", typed, ("Form.Command", command))).Page;

    static string? TestedOutcome(IHtmlDocument page) =>
        page.QuerySelector("[data-table='test-probes'] tr[data-probe='connect']")?.GetAttribute("data-outcome");

    [Fact]
    public async Task Form_test_connection_sends_no_login_to_a_listener_without_encryption()
    {
        await using var bait = new PreLoginBait();
        await using var host = new DashboardHost(new ScenarioInstance { Name = "unused", Profile = "2019" });

        var page = await PostFormAsync(host.CreateClient(), BaitForm(bait.Port), "test");
        await bait.SettleAsync();

        Assert.Contains(PreLoginBait.PreLoginPacket, bait.PacketTypes);
        Assert.False(bait.ReceivedLogin7);
        Assert.Equal("TlsError", TestedOutcome(page));
    }

    [Fact]
    public async Task Form_test_connection_to_a_host_outside_the_allow_list_connects_nowhere()
    {
        await using var bait = new PreLoginBait();
        await using var host = new DashboardHost(new ScenarioInstance { Name = "unused", Profile = "2019" });

        // "localhost" reaches the listener too, but the credential allows the literal 127.0.0.1 only.
        var page = await PostFormAsync(host.CreateClient(), BaitForm(bait.Port, host: "localhost"), "test");
        await bait.SettleAsync();

        Assert.Equal(0, bait.ClientConnections);
        Assert.Equal("HostNotAllowed", TestedOutcome(page));
    }

    [Fact]
    public async Task Instance_registered_through_the_form_is_polled_without_sending_the_login()
    {
        await using var bait = new PreLoginBait();
        await using var host = new DashboardHost(new ScenarioInstance { Name = "unused", Profile = "2019" });

        await PostFormAsync(host.CreateClient(), BaitForm(bait.Port), "save");
        var polled = await host.PollAllAsync();
        await bait.SettleAsync();

        Assert.Equal(1, polled);
        Assert.Contains(PreLoginBait.PreLoginPacket, bait.PacketTypes);
        Assert.False(bait.ReceivedLogin7);
    }

    [Fact]
    public async Task Instances_registered_through_the_api_put_and_sync_are_polled_without_sending_the_login()
    {
        // One listener per instance: one server is registered once.
        await using var putBait = new PreLoginBait();
        await using var syncBait = new PreLoginBait();
        await using var host = new ApiHost(builder =>
        {
            builder.UseSetting("Credentials:fleet_reader:UserId", "ifi_collector");
            builder.UseSetting("Credentials:fleet_reader:Password", "C0llect!ng-Pw");
            builder.UseSetting("Credentials:fleet_reader:AllowedHosts:0", "127.0.0.1");
            builder.UseSetting("Credentials:fleet_reader:AllowTrustServerCertificate", "true");
        });
        var client = await host.CmdbClientAsync();
        Dictionary<string, object?> Bait(string name, PreLoginBait bait)
        {
            var body = ApiTestData.Instance(name, externalKey: name, port: bait.Port);
            body["host"] = "127.0.0.1";
            body["encrypt"] = "Optional";
            body["trustServerCertificate"] = true;
            return body;
        }

        var put = Bait("CI-PUT", putBait);
        put.Remove("externalKey");
        (await client.PutAsJsonAsync("/api/v1/instances/CI-PUT", put)).EnsureSuccessStatusCode();
        (await client.PostAsJsonAsync("/api/v1/instances/sync", ApiTestData.Sync([Bait("CI-PUT", putBait), Bait("CI-SYNC", syncBait)]))).EnsureSuccessStatusCode();
        var polled = await host.Services.GetRequiredService<CollectorService>().PollDueOnceAsync(CancellationToken.None);
        await putBait.SettleAsync();
        await syncBait.SettleAsync();

        Assert.Equal(2, polled);
        foreach (var bait in new[] { putBait, syncBait })
        {
            Assert.NotEmpty(bait.PacketTypes);
            Assert.All(bait.PacketTypes, type => Assert.Equal(PreLoginBait.PreLoginPacket, type));
        }
    }
}

using System.Globalization;
using System.Net.Http.Json;
using AngleSharp.Html.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Api;
using IfiDashboard.Server.Tests.Inventory;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;
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
            builder.UseSetting("Credentials:fleet_reader:AllowedHosts:0", LoopbackPorts.AllowListEntry);
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

    /// <summary>
    /// An editor names a TLS name of their choice ("localhost") for an allowed address, where a listener completes TLS
    /// (TDS 7.x, or TDS 8 Strict) with a certificate the collector trusts for this credential (pinned in its
    /// CertificateFolder) and valid for that name. The credential lists no such name, so through Test connection, the
    /// form, a PUT, a sync and a CSV import no listener sees even a PRELOGIN, and the test is in the audit log.
    /// </summary>
    [Theory]
    [InlineData("Mandatory")]
    [InlineData("Strict")]
    public async Task Tls_name_the_credential_does_not_list_gets_no_login_through_any_path(string encrypt)
    {
        ScenarioInstance Listener(string name) => encrypt == "Strict"
            ? new ScenarioInstance { Name = name, Profile = "2022", Encryption = EncryptionSupport.Strict, IfiEnabled = true }
            : new ScenarioInstance { Name = name, Profile = "2019", IfiEnabled = true };
        await using var host = new DashboardHost(Listener("form"), Listener("put"), Listener("sync"), Listener("import"));
        var pin = Path.Combine(host.CertificateFolder, "simulator.pem");
        await File.WriteAllTextAsync(pin, ServerCertificate.ExportPem());
        var (browser, cmdb) = await InstanceRulesOnEveryPathTests.ClientsAsync(host);
        Dictionary<string, object?> Registration(string name) => new()
        {
            ["name"] = name, ["host"] = "127.0.0.1", ["port"] = host.Fleet[name].Port, ["encrypt"] = encrypt,
            ["hostNameInCertificate"] = "localhost", ["serverCertificatePath"] = pin, ["credentialName"] = SimulatedFleetRegistration.CredentialName,
        };
        var form = Registration("form").ToDictionary(f => "Form." + char.ToUpperInvariant(f.Key[0]) + f.Key[1..],
            f => Convert.ToString(f.Value, CultureInfo.InvariantCulture)!);
        var import = Registration("import");

        var tested = await PostFormAsync(browser, form, "test");
        await PostFormAsync(browser, form, "save");
        // A sync retires what the CMDB registered and no longer lists, so it goes before the PUT.
        (await cmdb.PostAsJsonAsync("/api/v1/instances/sync",
            new { instances = new[] { new Dictionary<string, object?>(Registration("sync")) { ["externalKey"] = "sync" } } })).EnsureSuccessStatusCode();
        (await cmdb.PutAsJsonAsync("/api/v1/instances/put", Registration("put"))).EnsureSuccessStatusCode();
        var preview = await CsvImportTests.UploadAsync(browser, string.Join(',', import.Keys) + "\r\n" +
            string.Join(',', import.Values.Select(v => Convert.ToString(v, CultureInfo.InvariantCulture))) + "\r\n");
        var confirm = preview.QuerySelector("form[data-form='import-confirm']")!.QuerySelectorAll("input[type=hidden]")
            .ToDictionary(i => i.GetAttribute("name")!, i => i.GetAttribute("value") ?? "");
        (await browser.PostAsync("/inventory/import", new FormUrlEncodedContent(confirm))).EnsureSuccessStatusCode();
        var polled = await host.PollAllAsync();

        Assert.Equal("InsecureTransportRefused", TestedOutcome(tested));
        Assert.Equal(4, polled);
        Assert.All(new[] { "form", "put", "sync", "import" }, name => Assert.Empty(host.Fleet[name].Transcript.Entries));
        var audited = Assert.Single(await host.Services.GetRequiredService<AuditLog>().QueryAsync(
            new AuditFilter(Action: AuditActions.ConnectionTested), null, AuditLog.MaxPageSize, CancellationToken.None));
        Assert.Equal("unsaved instance (form)", audited.Target);
        Assert.Contains("\"outcome\":\"InsecureTransportRefused\"", audited.After, StringComparison.Ordinal);
        Assert.Contains("\"credentialName\":\"fleet\"", audited.After, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Fifo_pinned_in_the_credentials_folder_is_refused_by_test_connection_and_the_poll_without_being_opened()
    {
        using var pins = new PinFolder();
        await using var host = new DashboardHost(new ScenarioInstance { Name = "sql", Profile = "2019", IfiEnabled = true });
        host.Settings["Credentials:fleet:CertificateFolder"] = pins.Folder;
        var form = new Dictionary<string, string>
        {
            ["Form.Name"] = "sql", ["Form.Host"] = "127.0.0.1", ["Form.Port"] = host.Fleet["sql"].Port.ToString(CultureInfo.InvariantCulture),
            ["Form.ServerCertificatePath"] = pins.Fifo(), ["Form.CredentialName"] = SimulatedFleetRegistration.CredentialName,
        };

        var tested = await PostFormAsync(host.CreateClient(), form, "test");
        await PostFormAsync(host.CreateClient(), form, "save");
        var polled = await host.PollAllAsync();

        Assert.Equal("InsecureTransportRefused", TestedOutcome(tested));
        Assert.Equal(1, polled);
        Assert.Empty(host.Fleet["sql"].Transcript.Entries);
    }
}

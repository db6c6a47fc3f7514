using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Dapper;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Store;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Tests.Inventory;

/// <summary>
/// One rule set for an instance, whichever way it arrives: each bad value is sent through the dashboard's form, a
/// CMDB's PUT and a CMDB's sync, and the collector's <c>check</c> command where it takes the field, and each path
/// answers with the same rule's message beside the same field and stores nothing; a CSV import's preview shows it on
/// the row. And the field the form always
/// offered but no path kept, the certificate pin, now reaches the polls.
/// </summary>
public sealed class InstanceRulesOnEveryPathTests(SharedDashboardHost shared) : IClassFixture<SharedDashboardHost>
{
    /// <summary>A bad value for one field, as the API's JSON carries it and as a person types it in the form.</summary>
    public sealed record BadValue(string Field, string Value, string Why)
    {
        public override string ToString() => $"{Field}: {Why}";
    }

    public static TheoryData<BadValue> BadValues() =>
    [
        new("owner", new string('o', 129), "longer than 128 characters (a form once stored a 3 MB owner)"),
        new("name", "SQLFIN\u202E10", "a right-to-left override"),
        new("environment", "Prod\u200Buction", "a zero-width space"),
        new("tags", "pci\u2066", "a bidi isolate"),
        new("host", "http://db01.corp.example", "a scheme"),
        new("instanceName", "1REPORTING", "a digit first"),
        new("hostNameInCertificate", "db01.corp.example:1433", "a port"),
        new("serverCertificatePath", "/etc/ifi/pin\u0007.pem", "a control character"),
        new("serverCertificatePath", @"\\attacker.example\share\pin.cer", "a network share, which starts SMB authentication to that host"),
        new("serverCertificatePath", "//attacker.example/share/pin.cer", "a network share with slashes"),
        new("serverCertificatePath", @"\\.\pipe\pin", "a device namespace"),
        new("serverCertificatePath", "https://attacker.example/pin.cer", "a URL"),
        new("serverCertificatePath", "pins/sql01.pem", "a relative path"),
        new("serverCertificatePath", "/etc/ifi/certs/../../shadow", "a '..' out of the folder"),
        new("serverCertificatePath", @"C:\ifi\certs\sql01.cer:hidden", "an alternate data stream"),
        new("credentialName", "fleet.reader", "a '.', which no shell exports"),
    ];

    [Theory]
    [MemberData(nameof(BadValues))]
    public async Task A_bad_value_gets_the_same_message_on_the_form_the_api_and_sync_and_nothing_is_stored(BadValue bad)
    {
        // One host for every bad value: none may store anything, so each finds the store as empty as a fresh one.
        var host = shared.Host;
        var (browser, cmdb) = await ClientsAsync(host);
        Assert.Empty(InstanceRules.Check(ValidRegistration()));
        var expected = Assert.Single(RuleBrokenBy(bad));

        var form = await EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration",
            new(ValidForm()) { [FormField(bad.Field)] = bad.Value }, ("Form.Command", "save"));
        var put = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-1", ApiBody(bad));
        var sync = await cmdb.PostAsJsonAsync("/api/v1/instances/sync",
            new { instances = new[] { new Dictionary<string, object?>(ApiBody(bad)) { ["externalKey"] = "cmdb-1" } } });
        var import = await EditingPagesTests.SubmitAsync(browser, "/inventory/import", "import-file", new() { ["Import.Csv"] = ImportCsv(bad) });

        Assert.Contains(expected.Message, form.ErrorFor(FormField(bad.Field)), StringComparison.Ordinal);
        Assert.Contains(expected.Message, import.Page.QuerySelector($"[data-import-preview] li[data-field='{expected.Path}']")?.TextContent,
            StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.BadRequest, put.StatusCode);
        Assert.Equal([expected.Message], await ErrorsAsync(put, expected.Path));
        Assert.Equal(HttpStatusCode.BadRequest, sync.StatusCode);
        Assert.Equal([expected.Message], await ErrorsAsync(sync, "instances[0]." + expected.Path));
        Assert.Equal(0, await InstanceCountAsync(host));
        if (CliOption(bad.Field) is { } option)
        {
            var cli = await CollectorCheck.RunAsync(["--host", "127.0.0.1", "--credential", "fleet", option, bad.Value], new Dictionary<string, string>());
            Assert.Equal(2, cli.ExitCode);
            Assert.Contains($"{expected.Path}: {expected.Message}", cli.Error, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task A_strict_instance_pinned_to_its_certificate_is_polled_after_saving_through_the_form_and_the_api()
    {
        await using var host = new DashboardHost(
            new ScenarioInstance { Name = "strict-form", Profile = "2022", Encryption = EncryptionSupport.Strict, IfiEnabled = true },
            new ScenarioInstance { Name = "strict-cmdb", Profile = "2022", Encryption = EncryptionSupport.Strict, IfiEnabled = true });
        var pin = Path.Combine(host.CertificateFolder, "simulator.pem");
        await File.WriteAllTextAsync(pin, ServerCertificate.ExportPem());
        var (browser, cmdb) = await ClientsAsync(host);

        var saved = await EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration", new()
        {
            ["Form.Name"] = "strict-form",
            ["Form.Host"] = "127.0.0.1",
            ["Form.Port"] = host.Fleet["strict-form"].Port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Form.Encrypt"] = "Strict",
            ["Form.ServerCertificatePath"] = pin,
            ["Form.CredentialName"] = "fleet",
        }, ("Form.Command", "save"));
        var put = await cmdb.PutAsJsonAsync("/api/v1/instances/strict-cmdb", new Dictionary<string, object?>
        {
            ["name"] = "strict-cmdb",
            ["host"] = "127.0.0.1",
            ["port"] = host.Fleet["strict-cmdb"].Port,
            ["encrypt"] = "Strict",
            ["serverCertificatePath"] = pin,
            ["credentialName"] = "fleet",
        });
        var polled = await host.PollAllAsync();

        Assert.Contains("Registered strict-form", saved.Message, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Created, put.StatusCode);
        Assert.Equal(pin, (await put.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("instance").GetProperty("serverCertificatePath").GetString());
        Assert.Equal(2, polled);
        Assert.Equal(["Ok", "Ok"], await ConnectOutcomesAsync(host));
    }

    [Fact]
    public async Task One_server_registered_a_second_time_is_refused_on_the_form_the_api_and_sync_however_it_is_spelled()
    {
        await using var host = new DashboardHost();
        var (browser, cmdb) = await ClientsAsync(host);
        var first = await EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration",
            new() { ["Form.Name"] = "SQLFIN01", ["Form.Host"] = "sqlfin01.corp.example", ["Form.CredentialName"] = "fleet" },
            ("Form.Command", "save"));

        // The default port written out, the host in capitals: the same server.
        var form = await EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration",
            new() { ["Form.Name"] = "SQLFIN01-again", ["Form.Host"] = "SQLFIN01.Corp.Example", ["Form.Port"] = "1433" },
            ("Form.Command", "save"));
        var put = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-2",
            new { name = "SQLFIN01-cmdb", host = "SQLFIN01.CORP.EXAMPLE", port = 1433 });
        var sync = await cmdb.PostAsJsonAsync("/api/v1/instances/sync", new
        {
            instances = new object[]
            {
                new { externalKey = "cmdb-3", name = "other", host = "sqlfin02.corp.example" },
                new { externalKey = "cmdb-4", name = "SQLFIN01-sync", host = "sqlfin01.corp.example" },
            },
        });
        var elsewhere = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-5",
            new { name = "SQLFIN01-named", host = "sqlfin01.corp.example", instanceName = "REPORTING" });

        Assert.Contains("Registered SQLFIN01", first.Message, StringComparison.Ordinal);
        const string refusal = "SQLFIN01 already polls";
        Assert.Contains(refusal, form.ErrorFor("Form.Host"), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Conflict, put.StatusCode);
        Assert.StartsWith(refusal, Assert.Single(await ErrorsAsync(put, "host")), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Conflict, sync.StatusCode);
        Assert.StartsWith(refusal, Assert.Single(await ErrorsAsync(sync, "instances[1].host")), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.Created, elsewhere.StatusCode); // another instance on the same machine
        Assert.Equal(2, await InstanceCountAsync(host));
    }

    [Fact]
    public async Task A_server_registered_by_its_address_and_polled_is_refused_under_its_machine_name_with_a_link_to_it()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "sqlfin07", Profile = "2019", IfiEnabled = true });
        var port = host.Fleet["sqlfin07"].Port;
        var (browser, cmdb) = await ClientsAsync(host);
        var first = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-7", new { name = "fin-by-ip", host = "127.0.0.1", port, credentialName = "fleet", trustServerCertificate = true });
        var id = (await first.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("instance").GetProperty("id").GetInt64();
        Assert.Equal(1, await host.PollAllAsync()); // the server tells its name: SQLFIN07

        // Its DNS name on the same port: a registration the address alone could not tell from another server.
        var form = await EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration",
            new() { ["Form.Name"] = "fin-by-name", ["Form.Host"] = "sqlfin07.corp.example", ["Form.Port"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture) },
            ("Form.Command", "save"));
        var put = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-8", new { name = "fin-by-name", host = "SQLFIN07.corp.example", port });
        var otherPort = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-9", new { name = "fin-other", host = "sqlfin07.corp.example", port = port + 1 });

        Assert.Equal(HttpStatusCode.Created, first.StatusCode);
        Assert.StartsWith("fin-by-ip already polls", form.ErrorFor("Form.Host"), StringComparison.Ordinal);
        Assert.Equal($"instances/{id}", form.Page.QuerySelector("[data-existing-registration] a")?.GetAttribute("href"));
        Assert.Equal(HttpStatusCode.Conflict, put.StatusCode);
        var problem = await put.Content.ReadFromJsonAsync<JsonElement>();
        Assert.StartsWith("fin-by-ip already polls", problem.GetProperty("errors").GetProperty("host")[0].GetString(), StringComparison.Ordinal);
        Assert.Equal($"/instances/{id}", problem.GetProperty("existing")[0].GetProperty("link").GetString());
        Assert.Equal(HttpStatusCode.Created, otherPort.StatusCode); // another instance of that machine
        Assert.Equal(2, await InstanceCountAsync(host));
    }

    [Fact]
    public async Task Two_names_of_one_server_that_only_its_polls_tell_apart_count_once_in_the_fleet()
    {
        await using var host = new DashboardHost(new ScenarioInstance { Name = "sqlfin09", Profile = "2019", IfiEnabled = false });
        host.Settings["Credentials:fleet:AllowedHosts:1"] = "localhost:1024-65535";
        var port = host.Fleet["sqlfin09"].Port;
        var (browser, cmdb) = await ClientsAsync(host);
        // "localhost" and "127.0.0.1" are two addresses: nothing before a poll says they reach one server.
        var byAddress = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-9", new { name = "fin-by-ip", host = "127.0.0.1", port, credentialName = "fleet", trustServerCertificate = true });
        var byName = await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-10", new { name = "fin-by-name", host = "localhost", port, credentialName = "fleet", trustServerCertificate = true });

        Assert.Equal(2, await host.PollAllAsync());
        var fleet = await host.Services.GetRequiredService<IfiDashboard.Server.Compliance.FleetAssessments>().RecomputeAsync(CancellationToken.None);

        Assert.Equal((HttpStatusCode.Created, HttpStatusCode.Created), (byAddress.StatusCode, byName.StatusCode));
        Assert.Equal(["fin-by-ip"], fleet.Instances.Select(i => i.Registration.Name));
        Assert.Equal("fin-by-ip", Assert.Single(fleet.DuplicateOf).Value.Name);
        Assert.Single(fleet.Last90Days.Instances);

        // What a person sees: the inventory names the duplicate, and its instance page says which one counts.
        var parser = new AngleSharp.Html.Parser.HtmlParser();
        var counted = (await byAddress.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("instance").GetProperty("id").GetInt64();
        var duplicate = (await byName.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("instance").GetProperty("id").GetInt64();
        var inventory = parser.ParseDocument(await browser.GetStringAsync("/inventory"));
        var note = inventory.QuerySelector($"tr[data-id='{duplicate}'] [data-duplicate-of]");
        Assert.Equal(counted.ToString(System.Globalization.CultureInfo.InvariantCulture), note?.GetAttribute("data-duplicate-of"));
        Assert.Null(inventory.QuerySelector($"tr[data-id='{counted}'] [data-duplicate-of]"));
        using var page = await browser.GetAsync($"/instances/{duplicate}");
        var explanation = parser.ParseDocument(await page.Content.ReadAsStringAsync()).QuerySelector("[data-duplicate-of]");
        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal($"instances/{counted}", explanation?.QuerySelector("a")?.GetAttribute("href"));
    }

    [Fact]
    public async Task A_write_through_the_api_announces_the_change_as_the_form_does()
    {
        await using var host = new DashboardHost();
        var (browser, cmdb) = await ClientsAsync(host);
        var announced = 0;
        host.Services.GetRequiredService<IfiDashboard.Store.FleetChanges>().Changed += () => Interlocked.Increment(ref announced);

        await EditingPagesTests.SubmitAsync(browser, "/inventory/new", "registration", ValidForm(), ("Form.Command", "save"));
        var afterForm = Volatile.Read(ref announced);
        (await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-1", new { name = "api-01", host = "api01.corp.example" })).EnsureSuccessStatusCode();
        var afterPut = Volatile.Read(ref announced);
        (await cmdb.PutAsJsonAsync("/api/v1/instances/cmdb-1", new { name = "api-01", host = "api01.corp.example" })).EnsureSuccessStatusCode();
        var afterSamePut = Volatile.Read(ref announced);
        (await cmdb.PostAsJsonAsync("/api/v1/instances/sync", new { instances = Array.Empty<object>() })).EnsureSuccessStatusCode();

        Assert.Equal([1, 2, 2, 3], [afterForm, afterPut, afterSamePut, Volatile.Read(ref announced)]);
    }

    /// <summary>A signed-in browser, and a CMDB integration with a key that may read and write the inventory.</summary>
    internal static async Task<(HttpClient Browser, HttpClient Cmdb)> ClientsAsync(DashboardHost host)
    {
        var (_, key) = await host.Services.GetRequiredService<ApiKeyIssuer>()
            .CreateAsync("cmdb", [ApiScopes.Read, ApiScopes.InventoryWrite], null, CancellationToken.None);
        var cmdb = host.CreateClient();
        cmdb.DefaultRequestHeaders.Add("X-Api-Key", key);
        return (host.CreateClient(), cmdb);
    }

    static InstanceRegistration ValidRegistration() => new() { Name = "valid-01", Host = "127.0.0.1", CredentialName = "fleet" };

    /// <summary>What <see cref="InstanceRules"/> says of the bad value alone: the expected message, from the rules.</summary>
    static IEnumerable<InstanceFieldError> RuleBrokenBy(BadValue bad)
    {
        var r = ValidRegistration();
        return InstanceRules.Check(bad.Field switch
        {
            "owner" => r with { Owner = bad.Value },
            "name" => r with { Name = bad.Value },
            "environment" => r with { Environment = bad.Value },
            "tags" => r with { Tags = [bad.Value] },
            "host" => r with { Host = bad.Value },
            "instanceName" => r with { InstanceName = bad.Value },
            "hostNameInCertificate" => r with { HostNameInCertificate = bad.Value },
            "serverCertificatePath" => r with { ServerCertificatePath = bad.Value },
            "credentialName" => r with { CredentialName = bad.Value },
            _ => throw new ArgumentOutOfRangeException(nameof(bad), bad.Field, "no such field"),
        });
    }

    static Dictionary<string, string> ValidForm() => new()
    {
        ["Form.Name"] = "valid-01",
        ["Form.Host"] = "127.0.0.1",
        ["Form.CredentialName"] = "fleet",
    };

    /// <summary>The valid registration and the bad value as a CSV import: a header row and one row.</summary>
    static string ImportCsv(BadValue bad)
    {
        var cells = new Dictionary<string, string> { ["name"] = "valid-01", ["host"] = "127.0.0.1", ["credentialName"] = "fleet", [bad.Field] = bad.Value };
        static string Quoted(string cell) => "\"" + cell.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
        return string.Join(',', cells.Keys) + "\r\n" + string.Join(',', cells.Values.Select(Quoted)) + "\r\n";
    }

    static string FormField(string field) => $"Form.{char.ToUpperInvariant(field[0])}{field[1..]}";

    static Dictionary<string, object?> ApiBody(BadValue bad) => new()
    {
        ["name"] = "valid-01",
        ["host"] = "127.0.0.1",
        ["credentialName"] = "fleet",
        [bad.Field] = bad.Field == "tags" ? new[] { bad.Value } : bad.Value,
    };

    static async Task<string[]> ErrorsAsync(HttpResponseMessage response, string path)
    {
        var problem = await response.Content.ReadFromJsonAsync<JsonElement>();
        Assert.True(problem.GetProperty("errors").TryGetProperty(path, out var messages), problem.ToString());
        return messages.EnumerateArray().Select(m => m.GetString()!).ToArray();
    }

    /// <summary>The collector's <c>check</c> option for a field, where it takes one.</summary>
    static string? CliOption(string field) => field switch
    {
        "host" => "--host",
        "instanceName" => "--instance",
        "hostNameInCertificate" => "--host-name-in-certificate",
        "serverCertificatePath" => "--server-certificate",
        "credentialName" => "--credential",
        _ => null,
    };

    static async Task<long> InstanceCountAsync(DashboardHost host)
    {
        await using var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM instances;");
    }

    static async Task<string[]> ConnectOutcomesAsync(DashboardHost host)
    {
        await using var connection = await host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return (await connection.QueryAsync<string>("SELECT outcome FROM probe_outcomes WHERE probe = 'connect' ORDER BY poll_id;")).ToArray();
    }
}

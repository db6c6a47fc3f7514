using System.Net;
using System.Net.Http.Headers;
using System.Text;
using AngleSharp.Html.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Store.Audit;
using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Inventory;

/// <summary>
/// Registering many instances from a CSV file uploaded on /inventory/import: the preview shows what registering would
/// do and stores nothing; registering is all rows or none, audited under the person who confirmed it.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class CsvImportTests
{
    const string Operator = "ops@bank.test";

    internal static async Task<IHtmlDocument> UploadAsync(HttpClient client, string csv)
    {
        var page = new HtmlParser().ParseDocument(await client.GetStringAsync("/inventory/import"));
        var form = page.QuerySelector("form[data-form='import-file']")!;
        // As a browser sends it: multipart, every hidden field of the form, the file under the file input's name.
        using var content = new MultipartFormDataContent();
        foreach (var hidden in form.QuerySelectorAll("input[type=hidden]"))
            content.Add(new StringContent(hidden.GetAttribute("value") ?? ""), hidden.GetAttribute("name")!);
        var file = new ByteArrayContent(Encoding.UTF8.GetPreamble().Concat(Encoding.UTF8.GetBytes(csv)).ToArray());
        file.Headers.ContentType = new MediaTypeHeaderValue("text/csv");
        content.Add(file, "file", "instances.csv");
        using var response = await client.PostAsync("/inventory/import", content);
        var html = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{(int)response.StatusCode}: {html}");
        return new HtmlParser().ParseDocument(html);
    }

    static string Outcome(IHtmlDocument page, int line) =>
        page.QuerySelector($"[data-import-preview] tr[data-line='{line}']")?.GetAttribute("data-outcome") ?? "no such row";

    [Fact]
    public async Task The_preview_stores_nothing_and_names_the_rows_in_the_way_then_registering_keeps_every_row()
    {
        await using var host = new DashboardHost();
        var client = TestSignIn.As(host.CreateClient(), Operator, DashboardRoles.Operator);
        var existing = await EditingPagesTests.SubmitAsync(client, "/inventory/new", "registration",
            new() { ["Form.Name"] = "sql-hr-01", ["Form.Host"] = "sql-hr-01.corp.example", ["Form.CredentialName"] = "fleet" },
            ("Form.Command", "save"));
        var before = await StoreDump.AllTextAsync(host.Services);

        var refused = await UploadAsync(client, """
            name,host,port,environment,tags,credentialName
            sql-fin-01,sql-fin-01.corp.example,1433,Production,finance;pci,fleet
            sql-fin-02,SQL-FIN-01.corp.example,,Test,,fleet
            sql-hr-01b,sql-hr-01.corp.example,,Production,,fleet
            sql-web-01,sql-web-01.corp.example,abc,Production,,fleet
            """);
        var afterPreview = await StoreDump.AllTextAsync(host.Services);

        Assert.Contains("Registered sql-hr-01", existing.Message, StringComparison.Ordinal);
        Assert.Equal(before, afterPreview);
        Assert.Equal(["registers", "refused", "refused", "refused"], Enumerable.Range(2, 4).Select(line => Outcome(refused, line)));
        // One server twice in the file: the later row is refused and names the earlier line, which is not stored yet.
        var inFile = refused.QuerySelector("tr[data-line='3'] li[data-field='host']")!;
        Assert.Contains("sql-fin-01 already polls", inFile.TextContent, StringComparison.Ordinal);
        Assert.Contains("(line 2 of this file)", inFile.TextContent, StringComparison.Ordinal);
        Assert.Null(inFile.QuerySelector("a"));
        // One server already registered: refused with a link to the registration that holds it.
        Assert.StartsWith("instances/", refused.QuerySelector("tr[data-line='4'] li[data-field='host'] a")?.GetAttribute("href"), StringComparison.Ordinal);
        Assert.Contains("A port number", refused.QuerySelector("tr[data-line='5'] li[data-field='port']")?.TextContent, StringComparison.Ordinal);
        Assert.Null(refused.QuerySelector("form[data-form='import-confirm']"));

        var accepted = await UploadAsync(client, """
            name,host,port,environment,tags,credentialName
            sql-fin-01,sql-fin-01.corp.example,1433,Production,finance;pci,fleet
            sql-web-01,sql-web-01.corp.example,,Test,,fleet
            """);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
        // Confirming posts the preview's own form: the text previewed, handed back in its hidden field.
        var confirm = accepted.QuerySelector("form[data-form='import-confirm']")!.QuerySelectorAll("input[type=hidden]")
            .ToDictionary(i => i.GetAttribute("name")!, i => i.GetAttribute("value") ?? "");
        using var posted = await client.PostAsync("/inventory/import", new FormUrlEncodedContent(confirm));
        var registered = new EditingPagesTests.Submitted(new HtmlParser().ParseDocument(await posted.Content.ReadAsStringAsync()),
            posted.RequestMessage!.RequestUri!.AbsolutePath);

        Assert.Equal(["registers", "registers"], Enumerable.Range(2, 2).Select(line => Outcome(accepted, line)));
        Assert.Equal("/inventory", registered.Path);
        Assert.Contains("Registered 2 instances from the file", registered.Message, StringComparison.Ordinal);
        var inventory = registered.Page.QuerySelectorAll("table[data-table='inventory'] tbody tr").Select(r => r.GetAttribute("data-instance")).ToList();
        Assert.Equal(["sql-fin-01", "sql-hr-01", "sql-web-01"], inventory);
        var fin = registered.Page.QuerySelector("tr[data-instance='sql-fin-01']")!;
        Assert.Equal("finance, pci", fin.QuerySelector(".tags")?.TextContent);
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(
            new AuditFilter(Action: AuditActions.InstanceRegistered), null, AuditLog.MaxPageSize, CancellationToken.None);
        // "instance 2 (sql-fin-01)": the ids a preview took inside its rolled-back transaction differ by store.
        Assert.Equal(["sql-fin-01", "sql-hr-01", "sql-web-01"], audit.Select(a => a.Target![(a.Target!.IndexOf('(') + 1)..^1]).Order(StringComparer.Ordinal));
        Assert.All(audit, a => Assert.Equal(Operator, a.Actor));
    }

    static string Summary(IHtmlDocument page) => page.QuerySelector("[data-import-summary]")?.TextContent.Trim() ?? "no summary";

    static async Task<EditingPagesTests.Submitted> ConfirmAsync(HttpClient client, IHtmlDocument preview)
    {
        var confirm = preview.QuerySelector("form[data-form='import-confirm']")!.QuerySelectorAll("input[type=hidden]")
            .ToDictionary(i => i.GetAttribute("name")!, i => i.GetAttribute("value") ?? "");
        using var posted = await client.PostAsync("/inventory/import", new FormUrlEncodedContent(confirm));
        return new EditingPagesTests.Submitted(new HtmlParser().ParseDocument(await posted.Content.ReadAsStringAsync()),
            posted.RequestMessage!.RequestUri!.AbsolutePath);
    }

    // Issue 29: a 1,500-instance estate had to split its file (1,000 rows, 512 KB). 20,000 rows of some 190 bytes are
    // near the 4 MB a file may have, which the preview's hidden copy of the file carries back whole.
    [Fact]
    public async Task Twenty_thousand_rows_are_previewed_as_counts_and_registered_in_one_import()
    {
        await using var host = new DashboardHost();
        var client = TestSignIn.As(host.CreateClient(), Operator, DashboardRoles.Operator);
        // A safety net, not a measure: a 20,000-row preview is seconds of work, which a loaded test machine stretches.
        client.Timeout = TimeSpan.FromMinutes(10);
        const int rows = 20_000;
        var owner = "Estate " + new string('x', 53);
        var csv = new StringBuilder("name,host,port,environment,owner,tags,hostNameInCertificate,credentialName\r\n");
        for (var i = 1; i <= rows; i++)
            csv.Append(System.Globalization.CultureInfo.InvariantCulture,
                $"sql-{i:D5},sql-{i:D5}.corp.example,1433,Production,{owner},tier1;emea;payments-platform;pci-scope-{i % 7},sql-{i:D5}.corp.example,fleet\r\n");
        Assert.InRange(csv.Length, 3_500_000, RegistrationCsv.MaxBytes);

        var preview = await UploadAsync(client, csv.ToString());
        var registered = await ConfirmAsync(client, preview);

        Assert.Equal("20,000 register, 0 refused. The table shows the first 200 rows of the file.", Summary(preview));
        Assert.Equal(200, preview.QuerySelectorAll("[data-import-preview] tr[data-line]").Length);
        Assert.True(registered.Path == "/inventory", $"{registered.Path}: {registered.Message} {registered.Page.QuerySelector("[data-import-error]")?.TextContent}");
        Assert.Contains("Registered 20,000 instances from the file", registered.Message, StringComparison.Ordinal);
        var inventory = await host.Services.GetRequiredService<IfiDashboard.Store.Inventory.InstanceInventory>().ListActiveAsync(CancellationToken.None);
        Assert.Equal(rows, inventory.Count);
        Assert.Equal(["emea", "payments-platform", "pci-scope-3", "tier1"], inventory.Single(i => i.Name == "sql-00003").Tags.Order(StringComparer.Ordinal));
        await using var connection = await host.Store.CreateConnections().OpenAsync(CancellationToken.None);
        Assert.Equal(rows, await Dapper.SqlMapper.ExecuteScalarAsync<long>(connection, "SELECT COUNT(*) FROM change_journal WHERE kind = 'inventory'"));
        Assert.Equal(rows, await Dapper.SqlMapper.ExecuteScalarAsync<long>(connection, "SELECT COUNT(*) FROM audit_log WHERE action = 'instance.registered'"));
    }

    [Fact]
    public async Task Among_more_rows_than_the_table_shows_the_refused_ones_are_listed_and_nothing_is_stored()
    {
        await using var host = new DashboardHost();
        var client = TestSignIn.As(host.CreateClient(), Operator, DashboardRoles.Operator);
        var csv = new StringBuilder("name,host,port,tags,credentialName\r\n");
        for (var i = 1; i <= 298; i++)
            csv.Append(System.Globalization.CultureInfo.InvariantCulture, $"sql-{i:D5},sql-{i:D5}.corp.example,1433,tier1,fleet\r\n");
        // The last-but-one row names the first row's server, the last one separates its tags with ','.
        csv.Append("sql-again,SQL-00001.corp.example,1433,tier1,fleet\r\nsql-comma,sql-comma.corp.example,1433,\"finance,pci\",fleet\r\n");
        var before = await StoreDump.AllTextAsync(host.Services);

        var preview = await UploadAsync(client, csv.ToString());

        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
        Assert.Equal("298 register, 2 refused. The table shows the first 2 refused rows of the file.", Summary(preview));
        Assert.Equal(["300 host", "301 tags"], preview.QuerySelectorAll("[data-import-preview] tr[data-line]")
            .Select(r => $"{r.GetAttribute("data-line")} {r.QuerySelector("li[data-field]")?.GetAttribute("data-field")}"));
        Assert.Contains("(line 2 of this file)", preview.QuerySelector("tr[data-line='300'] li[data-field='host']")?.TextContent, StringComparison.Ordinal);
        Assert.Contains("Separate tags with ';'", preview.QuerySelector("tr[data-line='301'] li[data-field='tags']")?.TextContent, StringComparison.Ordinal);
        Assert.Null(preview.QuerySelector("form[data-form='import-confirm']"));
    }

    // Issue 29: the import asked for tags "comma-separated in quotes" while both exports write them separated by ';'.
    [Fact]
    public async Task Tags_exported_by_the_grid_and_the_api_import_as_the_same_tags()
    {
        await using var host = new DashboardHost();
        var client = host.AdministratorClient();
        await EditingPagesTests.SubmitAsync(client, "/inventory/new", "registration",
            new() { ["Form.Name"] = "sql-a", ["Form.Host"] = "sql-a.corp.example", ["Form.Tags"] = "pci; tier 1; EMEA", ["Form.CredentialName"] = "fleet" },
            ("Form.Command", "save"));
        await host.Services.GetRequiredService<IfiDashboard.Server.Compliance.FleetAssessments>().RecomputeAsync(CancellationToken.None);
        using var apiRequest = new HttpRequestMessage(HttpMethod.Get, "/api/v1/compliance/export");
        apiRequest.Headers.Accept.ParseAdd("text/csv");
        var apiCsv = Api.Compliance.CsvReader.Parse(await (await client.SendAsync(apiRequest)).Content.ReadAsStringAsync());
        var gridCsv = Api.Compliance.CsvReader.Parse(await client.GetStringAsync("/instances/export.csv"));
        string TagsCell(List<List<string>> table) => table[1][table[0].FindIndex(h => h is "tags" or "Tags")];

        var preview = await UploadAsync(client, "name,host,tags\r\n" +
            $"sql-b,sql-b.corp.example,{TagsCell(apiCsv)}\r\nsql-c,sql-c.corp.example,{TagsCell(gridCsv)}\r\n");
        await ConfirmAsync(client, preview);

        var tags = (await host.Services.GetRequiredService<IfiDashboard.Store.Inventory.InstanceInventory>().ListActiveAsync(CancellationToken.None))
            .ToDictionary(i => i.Name, i => i.Tags);
        Assert.Equal(["pci", "tier 1", "EMEA"], tags["sql-a"]);
        Assert.Equal(tags["sql-a"], tags["sql-b"]);
        Assert.Equal(tags["sql-a"], tags["sql-c"]);
    }

    [Fact]
    public async Task A_viewer_cannot_import_and_the_store_is_unchanged()
    {
        await using var host = new DashboardHost();
        var operatorClient = TestSignIn.As(host.CreateClient(), Operator, DashboardRoles.Operator);
        var viewer = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer);
        var token = await TestSignIn.FormTokenAsync(viewer);
        var before = await StoreDump.AllTextAsync(host.Services);

        using var response = await viewer.PostAsync("/inventory/import", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            ["_handler"] = "import", ["__RequestVerificationToken"] = token,
            ["Import.Command"] = "register", ["Import.Csv"] = "name,host\r\nsql-x,sql-x.corp.example\r\n",
        }));

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
        Assert.Contains("Import from CSV", await operatorClient.GetStringAsync("/inventory"), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Imports_that_register_are_limited_per_person_and_a_refused_one_stores_nothing()
    {
        await using var host = new DashboardHost();
        host.Settings["BulkRegistration:PermitLimit"] = "1";
        var client = TestSignIn.As(host.CreateClient(), Operator, DashboardRoles.Operator);
        async Task<IHtmlDocument> RegisterAsync(string csv)
        {
            var preview = await UploadAsync(client, csv);
            var confirm = preview.QuerySelector("form[data-form='import-confirm']")!.QuerySelectorAll("input[type=hidden]")
                .ToDictionary(i => i.GetAttribute("name")!, i => i.GetAttribute("value") ?? "");
            using var posted = await client.PostAsync("/inventory/import", new FormUrlEncodedContent(confirm));
            return new HtmlParser().ParseDocument(await posted.Content.ReadAsStringAsync());
        }

        await RegisterAsync("name,host,port,credentialName\nsql-a,sql-a.corp.example,1433,fleet\n");
        var before = await StoreDump.AllTextAsync(host.Services);
        var previewed = await UploadAsync(client, "name,host,port,credentialName\nsql-b,sql-b.corp.example,1433,fleet\n");
        var refused = await RegisterAsync("name,host,port,credentialName\nsql-b,sql-b.corp.example,1433,fleet\n");

        Assert.Equal("registers", Outcome(previewed, 2)); // a preview writes nothing and is not counted
        Assert.Contains("Too many syncs or imports", refused.Body?.TextContent, StringComparison.Ordinal);
        Assert.Equal(before, await StoreDump.AllTextAsync(host.Services));
    }
}

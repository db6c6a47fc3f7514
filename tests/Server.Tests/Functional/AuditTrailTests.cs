using IfiDashboard.Shared.Security;
using System.Net;
using System.Net.Http.Json;
using AngleSharp.Html.Parser;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Audit;
using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Api;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The audit log end to end: who made a change through the form or the API, read back on the page (administrators
/// only), as CSV and through the API with <c>audit:read</c>.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class AuditTrailTests : IAsyncLifetime
{
    readonly DashboardHost _host = new(new ScenarioInstance { Name = "audited", Profile = "2019" });

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await _host.DisposeAsync();

    HttpClient KeyClient(string key)
    {
        var client = _host.CreateClient();
        client.DefaultRequestHeaders.Add("X-Api-Key", key);
        return client;
    }

    async Task<string> AuditKeyAsync() =>
        (await _host.Services.GetRequiredService<ApiKeyIssuer>().CreateAsync("siem", ["audit:read"], null, CancellationToken.None)).Key;

    [Fact]
    public async Task A_form_change_and_an_api_change_are_recorded_with_who_and_from_where_and_read_back_through_the_api()
    {
        // A server of its own on a real socket, so that it sees a remote address.
        await using var host = new DashboardHost();
        var port = host.StartOnFreePort();
        var issuer = host.Services.GetRequiredService<ApiKeyIssuer>();
        var (cmdb, cmdbKey) = await issuer.CreateAsync("cmdb", ["read", "inventory:write"], null, CancellationToken.None);
        var (_, auditKey) = await issuer.CreateAsync("siem", ["audit:read"], null, CancellationToken.None);
        HttpClient Client(string? key = null)
        {
            var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/") };
            if (key is not null) client.DefaultRequestHeaders.Add("X-Api-Key", key);
            return client;
        }

        await EditingPagesTests.SubmitAsync(TestSignIn.As(Client(), "otto@bank.test", DashboardRoles.Operator), "/inventory/new", "registration", new()
        {
            ["Form.Name"] = "from-the-form", ["Form.Host"] = "127.0.0.1", ["Form.Port"] = "1433", ["Form.CredentialName"] = "fleet",
        }, ("Form.Command", "save"));
        (await Client(cmdbKey).PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("FROM-THE-API"))).EnsureSuccessStatusCode();

        var answer = await Client(auditKey).GetFromJsonAsync<AuditEntriesPage>($"/api/v1/audit?action={AuditActions.InstanceRegistered}");
        var withoutScope = await Client(cmdbKey).GetAsync("/api/v1/audit");

        var entries = answer!.Entries;
        Assert.Equal([$"cmdb (API key {cmdb.Prefix})", "otto@bank.test"], entries.Select(e => e.Actor));
        Assert.Contains("FROM-THE-API", entries[0].Target, StringComparison.Ordinal);
        Assert.Contains("from-the-form", entries[1].Target, StringComparison.Ordinal);
        Assert.All(entries, e => Assert.Equal("127.0.0.1", e.RemoteAddress));
        Assert.Null(answer.NextBefore);
        await ProblemAssert.IsProblemAsync(withoutScope, 403, null);
    }

    [Fact]
    public async Task Api_pages_follow_next_before_and_bad_filters_are_named()
    {
        var log = _host.Services.GetRequiredService<AuditLog>();
        for (var i = 0; i < 3; i++)
            await log.RecordAsync(AuditActions.TestEmailSent, $"dba{i}@bank.test", null, null, CancellationToken.None);
        var client = KeyClient(await AuditKeyAsync());

        var first = await client.GetFromJsonAsync<AuditEntriesPage>($"/api/v1/audit?action={AuditActions.TestEmailSent}&limit=2");
        var second = await client.GetFromJsonAsync<AuditEntriesPage>($"/api/v1/audit?action={AuditActions.TestEmailSent}&limit=2&before={first!.NextBefore}");
        var badTime = await client.GetAsync("/api/v1/audit?from=yesterday");
        var badBefore = await client.GetAsync("/api/v1/audit?before=-3");

        Assert.Equal(["dba2@bank.test", "dba1@bank.test", "dba0@bank.test"], first.Entries.Concat(second!.Entries).Select(e => e.Target));
        Assert.Null(second.NextBefore);
        await ProblemAssert.IsProblemAsync(badTime, 400, "from");
        await ProblemAssert.IsProblemAsync(badBefore, 400, "before");
    }

    [Fact]
    public async Task Paging_by_the_largest_page_reaches_the_oldest_entry_and_the_csv_holds_every_entry()
    {
        const int entries = AuditLog.MaxPageSize + 1;
        var services = _host.Services;
        var log = services.GetRequiredService<AuditLog>();
        await using (var connection = await services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
        await using (var tx = await connection.BeginWriteAsync(CancellationToken.None))
        {
            for (var i = 0; i < entries; i++)
                await log.AppendAsync(connection, tx, AuditActions.TestEmailSent, $"dba{i}@bank.test", null, null, CancellationToken.None);
            await tx.CommitAsync();
        }
        var client = KeyClient(await AuditKeyAsync());

        var first = await client.GetFromJsonAsync<AuditEntriesPage>($"/api/v1/audit?action={AuditActions.TestEmailSent}&limit={AuditLog.MaxPageSize}");
        var second = first!.NextBefore is { } next
            ? await client.GetFromJsonAsync<AuditEntriesPage>($"/api/v1/audit?action={AuditActions.TestEmailSent}&limit={AuditLog.MaxPageSize}&before={next}")
            : null;
        var csv = await _host.AdministratorClient().GetStringAsync($"/audit.csv?action={AuditActions.TestEmailSent}");

        Assert.Equal(AuditLog.MaxPageSize, first.Entries.Count);
        Assert.NotNull(second);
        Assert.Equal(["dba0@bank.test"], second.Entries.Select(e => e.Target));
        Assert.Null(second.NextBefore);
        Assert.Equal(1 + entries, csv.Split("\r\n", StringSplitOptions.RemoveEmptyEntries).Length);
    }

    /// <summary>
    /// What the page shows once loaded. The audit page streams (StreamRendering): when the store answers slower than
    /// the first flush, the table comes in a later &lt;template&gt; of the same response that replaces the placeholder,
    /// so the final content is the streamed one where there is any.
    /// </summary>
    internal static IReadOnlyList<AngleSharp.Dom.IElement> Rendered(AngleSharp.Html.Dom.IHtmlDocument page, string selector)
    {
        var streamed = page.QuerySelectorAll("blazor-ssr template").OfType<AngleSharp.Html.Dom.IHtmlTemplateElement>()
            .SelectMany(t => t.Content.QuerySelectorAll(selector)).ToList();
        return streamed.Count > 0 ? streamed : page.QuerySelectorAll(selector).ToList();
    }

    [Fact]
    public async Task The_page_and_its_csv_are_for_administrators_and_filter_by_actor()
    {
        var log = _host.Services.GetRequiredService<AuditLog>();
        await log.RecordAsync(AuditActions.TestEmailSent, "=cmd|' /C calc'!A0", null, new { accepted = true }, CancellationToken.None,
            new AuditActor("alice@bank.test", "10.1.2.3"));
        await log.RecordAsync(AuditActions.TestEmailSent, "dba@bank.test", null, null, CancellationToken.None, new AuditActor("bob", "10.1.2.4"));
        var admin = _host.AdministratorClient();
        var viewer = TestSignIn.As(_host.CreateClient(), "viewer@bank.test", "Viewer");

        var anonymousPage = await TestSignIn.Anonymous(_host.CreateClient()).GetAsync("/audit");
        var viewerPage = await viewer.GetAsync("/audit");
        var viewerCsv = await viewer.GetAsync("/audit.csv");
        var page = new HtmlParser().ParseDocument(await admin.GetStringAsync("/audit?actor=alice%40bank.test"));
        var csv = await admin.GetAsync("/audit.csv?actor=alice%40bank.test");
        var csvText = await csv.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.Unauthorized, anonymousPage.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, viewerPage.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, viewerCsv.StatusCode);
        var row = Assert.Single(Rendered(page, "tr[data-audit]"));
        Assert.Contains("alice@bank.test", row.TextContent, StringComparison.Ordinal);
        Assert.Contains("10.1.2.3", row.TextContent, StringComparison.Ordinal);
        Assert.Equal("audit.csv?actor=alice%40bank.test", Assert.Single(Rendered(page, "[data-export=audit-csv]")).GetAttribute("href"));
        Assert.Equal("text/csv", csv.Content.Headers.ContentType?.MediaType);
        var lines = csvText.Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("id,occurred_at_utc,actor,actor_identity,remote_address,action,target,before,after", lines[0]);
        Assert.Equal(2, lines.Length);
        Assert.Contains(",alice@bank.test,,10.1.2.3,alerts.test-email,'=cmd|' /C calc'!A0,,", lines[1], StringComparison.Ordinal);
    }

    [Fact]
    public async Task Issuing_and_revoking_a_key_through_the_api_is_recorded_without_the_key()
    {
        var (adminKey, adminSecret) = await _host.Services.GetRequiredService<ApiKeyIssuer>()
            .CreateAsync("key-admin", ["admin"], null, CancellationToken.None);
        var admin = KeyClient(adminSecret);

        var created = await (await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "reporting", scopes = new[] { "read" } }))
            .Content.ReadFromJsonAsync<CreatedApiKeyResponse>();
        (await admin.DeleteAsync($"/api/v1/api-keys/{created!.Prefix}")).EnsureSuccessStatusCode();

        var entries = await _host.Services.GetRequiredService<AuditLog>()
            .QueryAsync(new AuditFilter(Actor: $"key-admin (API key {adminKey.Prefix})"), null, 10, CancellationToken.None);
        Assert.Equal([AuditActions.ApiKeyRevoked, AuditActions.ApiKeyIssued], entries.Select(e => e.Action));
        Assert.All(entries, e => Assert.DoesNotContain(created.Key.Split('_')[2], e.Before + e.After, StringComparison.Ordinal));
        Assert.DoesNotContain(created.Key.Split('_')[2], await StoreDump.AllTextAsync(_host.Services), StringComparison.Ordinal);
    }
}

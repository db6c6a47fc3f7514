using System.Net;
using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// Explicit assignment (issue 27, item 1): rules assign instances to collectors or groups of them; a collector leases
/// only what is assigned to it, a standby of the group takes over when the active one falls silent, a collector outside
/// the group never does; rules are checked by one rule set, previewed, audited, and need the admin scope. The server's
/// clock is a test clock the tests move.
/// </summary>
public sealed class CollectorAssignmentTests : IAsyncLifetime
{
    const string Paris = "paris-a";
    const string Standby = "paris-b";
    const string Rogue = "rogue_collector";
    const string ParisKey = "paris-a-collector-key-0123456789";
    const string StandbyKey = "paris-b-collector-key-0123456789";
    const string RogueKey = "rogue-collector-key-0123456789";
    const string Administrators = "ifi-admins@bank.test";

    static readonly TimeSpan TakeoverDelay = new IngestionOptions().TakeoverDelay;

    readonly FakeTimeProvider _clock = new(DateTimeOffset.UtcNow);
    readonly ApiHost _host;
    HttpClient _admin = null!;

    public CollectorAssignmentTests() => _host = new ApiHost(b => b
        .UseSetting($"Ingestion:ApiKeys:{Paris}", ParisKey)
        .UseSetting($"Ingestion:ApiKeys:{Standby}", StandbyKey)
        .UseSetting($"Ingestion:ApiKeys:{Rogue}", RogueKey)
        .UseSetting("Alerts:DefaultTo:0", Administrators)
        .ConfigureTestServices(services => services.AddSingleton<TimeProvider>(_clock)));

    public async Task InitializeAsync()
    {
        var cmdb = await _host.CmdbClientAsync();
        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"))).EnsureSuccessStatusCode();
        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI002", ApiTestData.PutBody("SQL02", tags: ["pci"]))).EnsureSuccessStatusCode();
        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI003", ApiTestData.PutBody("SQL03", environment: "Test"))).EnsureSuccessStatusCode();
        _admin = _host.Client(ApiHost.BootstrapKey);
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    async Task<List<string>> LeaseAsync(string key, string collector)
    {
        var response = await _host.Client(key).PostAsJsonAsync("/api/v1/collector/leases", new LeaseRequest(collector, 1000, 3600));
        response.EnsureSuccessStatusCode();
        return [.. (await response.Content.ReadFromJsonAsync<List<InstanceRegistration>>())!.Select(i => i.Name).Order()];
    }

    Task<HttpResponseMessage> SaveAsync(params object[] rules) =>
        _admin.PutAsJsonAsync("/api/v1/collector-assignments", new { rules });

    static object Rule(string match, string[] values, params string[] collectors) => new { match, values, collectors };

    async Task<long> CountAsync(string sql)
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<long>(sql);
    }

    [Fact]
    public async Task A_collector_leases_only_the_instances_assigned_to_it_and_another_gets_none_of_them_however_often_it_asks()
    {
        (await SaveAsync(Rule("Environment", ["Production"], Paris))).EnsureSuccessStatusCode();
        var rogueGot = new List<string>();

        // The rogue asks first, every 30 s for ten minutes, while paris-a polls: it gets only the unassigned instance.
        for (var round = 0; round < 20; round++)
        {
            rogueGot.AddRange(await LeaseAsync(RogueKey, Rogue));
            await LeaseAsync(ParisKey, Paris);
            _clock.Advance(TimeSpan.FromSeconds(30));
        }

        Assert.Equal(["SQL03"], rogueGot.Distinct());
        Assert.Equal(2, await CountAsync($"SELECT COUNT(*) FROM instances WHERE last_leased_by = '{Paris}';"));
    }

    [Fact]
    public async Task A_standby_of_the_group_takes_over_from_the_silent_active_collector_and_a_collector_outside_it_never_does()
    {
        (await SaveAsync(Rule("All", [], Paris, Standby))).EnsureSuccessStatusCode();
        Assert.Equal(["SQL01", "SQL02", "SQL03"], await LeaseAsync(ParisKey, Paris));
        Assert.Empty(await LeaseAsync(StandbyKey, Standby));

        // paris-a falls silent; the standby and the rogue ask every minute, past the takeover delay and paris-a's lease.
        var rogueGot = new List<string>();
        var taken = new List<string>();
        for (var minute = 0; minute < 8; minute++)
        {
            _clock.Advance(TimeSpan.FromMinutes(1));
            rogueGot.AddRange(await LeaseAsync(RogueKey, Rogue));
            taken.AddRange(await LeaseAsync(StandbyKey, Standby));
        }

        Assert.Empty(rogueGot);
        Assert.Equal(["SQL01", "SQL02", "SQL03"], taken.Order());
        Assert.Equal(3, await CountAsync($"SELECT COUNT(*) FROM collector_takeovers WHERE collector_name = '{Standby}' AND taken_from = '{Paris}';"));
    }

    [Fact]
    public async Task A_rule_change_moves_instances_to_the_newly_assigned_collector_at_its_next_lease_without_a_takeover()
    {
        Assert.Equal(["SQL01", "SQL02", "SQL03"], await LeaseAsync(ParisKey, Paris));
        _clock.Advance(TimeSpan.FromHours(1));
        await LeaseAsync(ParisKey, Paris);
        _clock.Advance(TimeSpan.FromHours(1));

        (await SaveAsync(Rule("Tag", ["PCI"], Standby))).EnsureSuccessStatusCode();

        Assert.Equal(["SQL02"], await LeaseAsync(StandbyKey, Standby));
        Assert.Equal(["SQL01", "SQL03"], await LeaseAsync(ParisKey, Paris));
        Assert.Equal(0, await CountAsync("SELECT COUNT(*) FROM collector_takeovers;"));
    }

    [Fact]
    public async Task Rules_that_break_the_rule_set_are_refused_naming_the_field_and_change_nothing()
    {
        (await SaveAsync(Rule("Tag", ["pci"], Paris))).EnsureSuccessStatusCode();

        var badNetwork = await SaveAsync(Rule("Environment", ["Production"], Paris), Rule("Network", ["10.20.0.1/16"], Paris));
        var noCollector = await SaveAsync(Rule("All", []));
        var badPreview = await _admin.PostAsJsonAsync("/api/v1/collector-assignments/preview", new { rules = new[] { Rule("Tag", [], Paris) } });
        var unknownMatch = await SaveAsync(Rule("Subnet", ["10.0.0.0/8"], Paris));

        await ProblemAssert.IsProblemAsync(badNetwork, 400, "rules[1].values[0]");
        await ProblemAssert.IsProblemAsync(noCollector, 400, "rules[0].collectors");
        await ProblemAssert.IsProblemAsync(badPreview, 400, "rules[0].values");
        await ProblemAssert.IsProblemAsync(unknownMatch, 400, null);
        var saved = await _admin.GetFromJsonAsync<AssignmentRulesResource>("/api/v1/collector-assignments");
        Assert.Equal(AssignmentMatch.Tag, Assert.Single(saved!.Saved).Match);
    }

    [Fact]
    public async Task A_preview_counts_the_instances_of_each_rule_and_names_the_unassigned_and_saves_nothing()
    {
        var response = await _admin.PostAsJsonAsync("/api/v1/collector-assignments/preview",
            new { rules = new[] { Rule("Instances", ["sql01", "CI002"], Paris), Rule("Environment", ["production"], Standby) } });

        var preview = (await response.Content.ReadFromJsonAsync<AssignmentPreview>())!;
        Assert.Equal([2L, 0L], preview.Rules.Select(r => r.Instances));
        Assert.Equal(1L, preview.Unassigned);
        Assert.Equal(["SQL03"], preview.UnassignedNames);
        Assert.Equal(0, await CountAsync("SELECT COUNT(*) FROM collector_assignments;"));
    }

    [Fact]
    public async Task A_saved_list_is_audited_with_the_rules_before_and_after_and_needs_the_admin_scope()
    {
        var reader = _host.Client(await _host.CreateKeyAsync("read", "inventory:write"));

        var refused = await reader.PutAsJsonAsync("/api/v1/collector-assignments", new { rules = new[] { Rule("All", [], Rogue) } });
        var refusedRead = await reader.GetAsync("/api/v1/collector-assignments");
        (await SaveAsync(Rule("Network", ["10.20.0.0/16"], Paris))).EnsureSuccessStatusCode();
        (await SaveAsync()).EnsureSuccessStatusCode();

        await ProblemAssert.IsProblemAsync(refused, 403, null);
        await ProblemAssert.IsProblemAsync(refusedRead, 403, null);
        var audit = await _host.Services.GetRequiredService<AuditLog>().QueryAsync(
            new AuditFilter(Action: AuditActions.CollectorAssignmentsSaved), null, AuditLog.MaxPageSize, CancellationToken.None);
        Assert.Equal(2, audit.Count);
        Assert.All(audit, e => Assert.StartsWith("bootstrap", e.Actor, StringComparison.OrdinalIgnoreCase));
        Assert.Contains(audit, e => e.After!.Contains("10.20.0.0/16", StringComparison.Ordinal) && e.Before == """{"rules":[]}""");
        Assert.Contains(audit, e => e.Before!.Contains("10.20.0.0/16", StringComparison.Ordinal) && e.After == """{"rules":[]}""");
    }

    [Fact]
    public async Task A_collector_silent_and_mailed_is_mailed_once_more_when_it_is_heard_from_again()
    {
        await LeaseAsync(ParisKey, Paris);
        await LeaseAsync(StandbyKey, Standby);
        // paris-a falls silent while paris-b is heard from throughout: paris-b's lease notices and mails it.
        _clock.Advance(TakeoverDelay / 2);
        await LeaseAsync(StandbyKey, Standby);
        _clock.Advance(TakeoverDelay / 2 + TimeSpan.FromSeconds(1));
        await LeaseAsync(StandbyKey, Standby);
        await LeaseAsync(StandbyKey, Standby);

        await LeaseAsync(ParisKey, Paris);
        _clock.Advance(TimeSpan.FromSeconds(30));
        await LeaseAsync(ParisKey, Paris);

        var mails = await _host.Services.GetRequiredService<OutboxStore>().RecentAsync(50, CancellationToken.None);
        Assert.Single(mails, m => m.Kind == AlertNoticeKind.CollectorSilent);
        var back = Assert.Single(mails, m => m.Kind == AlertNoticeKind.CollectorBack);
        Assert.Equal([Administrators], back.Recipients);
        Assert.Contains($"Collector {Paris} is back", back.Subject, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_collectors_page_previews_and_saves_the_rules_an_administrator_writes()
    {
        var browser = TestSignIn.AsRole(_host.CreateClient(), DashboardRoles.Administrator);
        async Task<string> SubmitAsync(string text, string command) => (await EditingPagesTests.SubmitAsync(browser, "/collectors",
            "assignments", new() { ["Form.Text"] = text }, ("Form.Command", command))).Page.DocumentElement.OuterHtml;

        var preview = await SubmitAsync($"tag: pci -> {Paris}\nall -> {Paris}, {Standby}", "preview");
        var refused = await SubmitAsync($"subnet: 10.0.0.0/8 -> {Paris}", "save");
        Assert.Equal(0, await CountAsync("SELECT COUNT(*) FROM collector_assignments;"));
        var saved = await SubmitAsync($"environment: Test -> {Standby}", "save");

        Assert.Contains("data-assignment-preview", preview, StringComparison.Ordinal);
        Assert.Contains("Unassigned", preview, StringComparison.Ordinal);
        Assert.Contains("data-assignment-errors", refused, StringComparison.Ordinal);
        Assert.Contains("Saved", saved, StringComparison.Ordinal);
        Assert.Equal(1, await CountAsync("SELECT COUNT(*) FROM collector_assignments;"));
        Assert.Equal(["SQL01", "SQL02"], await LeaseAsync(ParisKey, Paris));
    }
}

using IfiDashboard.Compliance.Alerts;
using System.Net.Http.Json;
using AngleSharp.Html.Dom;
using AngleSharp.Html.Parser;
using IfiDashboard.Client.Pages;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// Issue 29's "Done means" for availability groups, with real parts: a three-replica group in the simulator polled by
/// the real collector over TCP, a failover mid-test, and the real server's AG view, /changes and its feed, the
/// remediation order and the alert delivered to a real SMTP server all following it. And a failover cluster instance's
/// move to another node, told as a plain notice when the node it moved to has IFI.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class FailoverAlertTests
{
    const string ReadKeyBootstrap = "bootstrap-admin-key-for-failover-tests-0123456789";
    const int PatientSeconds = 90;

    static AlertsTestBed Payments() => AlertsTestBed.Create(
        [new ScenarioAvailabilityGroup { Name = "payments", Replicas = ["pay-a", "pay-b", "pay-c"], Listener = "payments-lsn" }],
        new ScenarioInstance { Name = "pay-a", Profile = "2019", IfiEnabled = true },
        new ScenarioInstance { Name = "pay-b", Profile = "2019", IfiEnabled = false },
        new ScenarioInstance { Name = "pay-c", Profile = "2019", IfiEnabled = true });

    static async Task<IHtmlDocument> PageAsync(AlertsHost host, string path) =>
        new HtmlParser().ParseDocument(await host.CreateClient().GetStringAsync(path));

    static string Text(IHtmlDocument page, string selector) =>
        string.Join(" ", AuditTrailTests.Rendered(page, selector).Select(e => e.TextContent.Trim()));

    [Fact]
    public async Task A_failover_to_a_replica_without_ifi_moves_the_ag_view_changes_feed_restart_order_and_is_mailed_once()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = Payments();
        await using var host = bed.StartHost(smtp, s => s["Api:BootstrapAdminKey"] = ReadKeyBootstrap);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        // The baseline (pay-b lacks IFI) goes out now, and this evaluation sets where failovers are read from.
        await host.SettleAsync();
        var before = (await host.WaitForMailAsync(smtp, 1, PatientSeconds)).Count;
        Assert.Equal("AG payments: 1 of 3 replicas without IFI; the primary has it.",
            Text(await PageAsync(host, "/"), "[data-overview=availability-groups] li[data-ag=payments]"));

        bed.Fleet.Failover("payments", "pay-b");
        await host.PollAndAssessAsync();
        await host.SettleAsync();

        // The alert: one mail, to the instance's route, about the new primary.
        var mails = await host.WaitForMailAsync(smtp, before + 1, PatientSeconds);
        var mail = Assert.Single(mails.Skip(before));
        Assert.Equal("[IFI] Failover to a replica without IFI: AG payments now runs on pay-b (Production)", mail.Subject);
        Assert.Equal([AlertsHost.ProdTeam], mail.RcptTos);
        foreach (var body in new[] { mail.Text!, mail.Html! })
        {
            Assert.Contains("Availability group payments failed over: this replica went from SECONDARY to PRIMARY", body, StringComparison.Ordinal);
            Assert.Contains("This instance now takes the writes, and it zeroes data files", body, StringComparison.Ordinal);
            Assert.Contains("AG payments: 1 of 3 replicas without IFI; the primary lacks it.", body, StringComparison.Ordinal);
            Assert.Contains("never restart it first", body, StringComparison.Ordinal);
            Assert.Contains($"https://ifi.example.test/instances/{host.IdOf("pay-b")}", body, StringComparison.Ordinal);
        }
        var outbox = await host.OutboxAsync();
        var told = Assert.Single(outbox, e => e.Kind is AlertNoticeKind.FailoverWithoutIfi or AlertNoticeKind.Failover);
        Assert.Equal((AlertNoticeKind.FailoverWithoutIfi, host.IdOf("pay-b"), OutboxStatus.Sent), (told.Kind, told.InstanceId, told.Status));

        // The AG view: the overview and the new primary's page.
        Assert.Equal("AG payments: 1 of 3 replicas without IFI; the primary lacks it.",
            Text(await PageAsync(host, "/"), "[data-overview=availability-groups] li[data-ag=payments]"));
        var page = await PageAsync(host, $"/instances/{host.IdOf("pay-b")}");
        Assert.Contains("This replica is primary.", page.QuerySelector("[data-ag-summary='payments']")!.TextContent, StringComparison.Ordinal);
        // The restart order follows the new roles.
        var steps = string.Join(" ", page.QuerySelectorAll("[data-remediation] ol li").Select(li => li.TextContent));
        Assert.Contains("This is the primary replica of availability group payments: never restart it first.", steps, StringComparison.Ordinal);
        Assert.Contains("secondaries (PAY-A, PAY-C)", steps, StringComparison.Ordinal);

        // /changes and the changes feed: both sides of the failover.
        var rows = AuditTrailTests.Rendered(await PageAsync(host, "/changes?kind=failover"), "[data-change-row]");
        Assert.Equal(["pay-a", "pay-b"], rows.Select(r => r.GetAttribute("data-instance")).Order());
        var admin = host.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", ReadKeyBootstrap);
        var created = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "failover-test-read", scopes = new[] { "read" } });
        created.EnsureSuccessStatusCode();
        var reader = host.CreateClient();
        reader.DefaultRequestHeaders.Add("X-Api-Key", (await created.Content.ReadFromJsonAsync<CreatedKey>())!.Key);
        var feed = await reader.GetFromJsonAsync<ChangePage>("/api/v1/changes?limit=1000");
        var failovers = feed!.Items.Where(e => e.Change == "availabilityFailover").ToList();
        Assert.Equal([("pay-a", "payments=PRIMARY", "payments=SECONDARY"), ("pay-b", "payments=SECONDARY", "payments=PRIMARY")],
            failovers.Select(e => (e.DisplayName, e.OldValue, e.NewValue)).OrderBy(e => e.DisplayName));

        // Told once: more polls and evaluations of the same roles add nothing.
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Single(await host.OutboxAsync(), e => e.Kind is AlertNoticeKind.FailoverWithoutIfi or AlertNoticeKind.Failover);
    }

    [Fact]
    public async Task A_cluster_instance_moving_to_a_node_with_ifi_is_a_plain_notice_and_a_silence_holds_it_back()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            new ScenarioInstance { Name = "fci-claims", Profile = "2019", IfiEnabled = true, ClusterNodes = ["SQLCLU-N1", "SQLCLU-N2"] },
            new ScenarioInstance { Name = "fci-sales", Profile = "2019", IfiEnabled = true, ClusterNodes = ["SQLCLU-N3", "SQLCLU-N4"] });
        await using var host = bed.StartHost(smtp);
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        await host.Services.GetRequiredService<IfiDashboard.Store.Alerts.AlertSilenceStore>()
            .AddAsync(new IfiDashboard.Shared.Alerts.AlertSilence
            {
                Kind = IfiDashboard.Shared.Alerts.SilenceKind.Snooze, InstanceId = host.IdOf("fci-sales"), Reason = "patch night",
                CreatedBy = "alice", CreatedAt = bed.Clock.GetUtcNow(), ExpiresAt = bed.Clock.GetUtcNow().AddHours(4),
            }, CancellationToken.None);

        bed.Fleet.Update("fci-claims", i => i.ClusterNodes = ["SQLCLU-N2", "SQLCLU-N1"]);
        bed.Fleet.Update("fci-sales", i => i.ClusterNodes = ["SQLCLU-N4", "SQLCLU-N3"]);
        await host.PollAndAssessAsync();
        await host.SettleAsync();

        var mail = Assert.Single(await host.WaitForMailAsync(smtp, 1, PatientSeconds));
        Assert.Equal("[IFI] Failover: fci-claims (Production) now runs on node SQLCLU-N2; IFI as policy wants it", mail.Subject);
        Assert.Contains("Failover cluster instance moved from node SQLCLU-N1 to SQLCLU-N2", mail.Text, StringComparison.Ordinal);
        Assert.DoesNotContain("What to do", mail.Text, StringComparison.Ordinal);
        var notices = (await host.OutboxAsync()).Where(e => e.Kind == AlertNoticeKind.Failover).ToList();
        Assert.Equal([(host.IdOf("fci-claims"), OutboxStatus.Sent), (host.IdOf("fci-sales"), OutboxStatus.Silenced)],
            notices.Select(e => (e.InstanceId!.Value, e.Status)).OrderBy(e => e.Item1 == host.IdOf("fci-sales")));

        // An Administrator switches the plain notice off on /alerts/settings (its box unticked, so not posted): the
        // move back is on the timeline and told to no one.
        var admin = host.CreateClient();
        using var saved = await admin.PostAsync("/alerts/settings", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            ["_handler"] = "alert-settings", ["__RequestVerificationToken"] = await IfiDashboard.Server.Tests.Security.TestSignIn.FormTokenAsync(admin),
            [AlertSettingsForm.Field("NonCompliant")] = "true", [AlertSettingsForm.Field("Unknown")] = "true",
            [AlertSettingsForm.Field("WaiverExpiring")] = "true", [AlertSettingsForm.Field("Recovery")] = "true",
            [AlertSettingsForm.Field("Failover")] = "true", [AlertSettingsForm.RenotifyField] = "4",
        }));
        Assert.True(saved.IsSuccessStatusCode);
        bed.Fleet.Update("fci-claims", i => i.ClusterNodes = ["SQLCLU-N1", "SQLCLU-N2"]);
        await host.PollAndAssessAsync();
        await host.SettleAsync();
        Assert.Equal(2, (await host.OutboxAsync()).Count(e => e.Kind == AlertNoticeKind.Failover));
    }

    sealed record CreatedKey(string Key);
}

using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store;

namespace IfiDashboard.Server.Tests.Api.Changes;

/// <summary>
/// Change webhooks: a receiver on loopback (a real Kestrel server) subscribed through the API gets each change of the
/// feed once, signed, through the alert outbox with its retries (alerts themselves off), survives being down, and
/// catches up by pulling the feed from the cursor of the last delivery it got.
/// </summary>
public sealed class ChangeWebhookTests
{
    const string Name = "sql-cmdb-01";
    const string AdminKey = "bootstrap-admin-key-for-change-webhook-tests";

    static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    sealed record Received(string Id, string Event, string Cursor, ChangeEntry Change, string DeliveryId);

    static IReadOnlyList<Received> Deliveries(WebhookReceiver receiver, string secret) => receiver.Received.Select(r =>
    {
        // Every delivery is signed as an alert webhook's is: HMAC-SHA256 of "<timestamp>.<body>" under the secret.
        Assert.Equal("sha256=" + WebhookSender.Signature(secret, r.Headers[WebhookSender.TimestampHeader], r.Body),
            r.Headers[WebhookSender.SignatureHeader]);
        var payload = JsonDocument.Parse(r.Body).RootElement;
        return new Received(payload.GetProperty("id").GetString()!, payload.GetProperty("event").GetString()!,
            payload.GetProperty("cursor").GetString()!, payload.GetProperty("change").Deserialize<ChangeEntry>(Web)!,
            r.Headers[WebhookSender.DeliveryHeader]);
    }).ToList();

    static async Task<List<ChangeEntry>> FeedAsync(HttpClient client, string? since)
    {
        var entries = new List<ChangeEntry>();
        for (var more = true; more;)
        {
            var page = (await client.GetFromJsonAsync<ChangePage>($"/api/v1/changes?limit=1000{(since is null ? "" : "&since=" + since)}", Web))!;
            entries.AddRange(page.Items);
            (since, more) = (page.NextCursor, page.HasMore);
        }
        return entries;
    }

    static async Task<CreatedChangeWebhookResponse> SubscribeAsync(HttpClient admin, object request)
    {
        var response = await admin.PostAsJsonAsync("/api/v1/change-webhooks", request);
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return (await response.Content.ReadFromJsonAsync<CreatedChangeWebhookResponse>(Web))!;
    }

    [Fact]
    public async Task A_receiver_gets_each_change_once_survives_being_down_and_catches_up_from_the_cursor()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using WebhookReceiver cmdb = new(), watcher = new();
        await cmdb.StartAsync();
        await watcher.StartAsync();
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = Name, Profile = "2019", IfiEnabled = true });
        await using var host = bed.StartHost(smtp, settings =>
        {
            settings["Alerts:Enabled"] = "false";
            settings["Api:BootstrapAdminKey"] = AdminKey;
        });
        var admin = host.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", AdminKey);
        var dispatcher = host.Services.GetRequiredService<ChangeWebhookDispatcher>();
        // The journal records an assessment newer than the last it recorded; on the test clock a background assessment can
        // share the poll's moment, so the poll's own is made a second later.
        async Task PollAsync()
        {
            await host.PollAndAssessAsync();
            bed.Clock.Advance(TimeSpan.FromSeconds(1));
            await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        }
        async Task DispatchAndDeliverAsync()
        {
            await dispatcher.DispatchAsync(CancellationToken.None);
            await host.DeliverAsync();
        }

        var all = await SubscribeAsync(admin, new { name = "cmdb", url = cmdb.Url("hooks/ifi?token=s3cr3t-path-token") });
        var ifiOnly = await SubscribeAsync(admin, new { name = "ifi-watch", url = watcher.Url("ifi"), events = new[] { "ifiLost", "ifiGained" } });

        // Registered and first assessed while the receiver listens; the server's own delivery loop sends them, though
        // mail alerts are off.
        await host.RegisterFleetAsync();
        await PollAsync();
        await dispatcher.DispatchAsync(CancellationToken.None);
        await Eventually.WaitAsync(host.OutboxAsync, rows => rows.Count(r => r.Kind == AlertNoticeKind.Change) >= 2
            && rows.All(r => r.Kind != AlertNoticeKind.Change || r.Status == OutboxStatus.Sent), seconds: 60);
        var beforeOutage = Deliveries(cmdb, all.Secret);
        Assert.Contains(beforeOutage, d => d.Event == "registered");

        // Down: IFI is lost meanwhile; the deliveries fail and wait for their retry.
        await cmdb.StopAsync();
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await PollAsync();
        await DispatchAndDeliverAsync();
        var failing = await Eventually.WaitAsync(host.OutboxAsync, rows => rows.Any(r => r.Kind == AlertNoticeKind.Change
            && r.Status == OutboxStatus.Pending && r.Attempts >= 1 && r.Subject.StartsWith("ifiLost", StringComparison.Ordinal)), seconds: 60);

        // What the receiver missed, pulled from the cursor of the last delivery it handled.
        var reader = host.Client(await CreateReadKeyAsync(admin));
        var missed = (await FeedAsync(reader, beforeOutage[^1].Cursor)).Where(e => ChangeEvents.Of(e) is not null).ToList();

        // Back up: the retries bring exactly what was missed, once.
        await cmdb.StartAsync();
        bed.Clock.Advance(TimeSpan.FromMinutes(5));
        await DispatchAndDeliverAsync();
        var delivered = await Eventually.WaitAsync(() => Deliveries(cmdb, all.Secret), d => d.Count >= beforeOutage.Count + missed.Count, seconds: 60);
        bed.Clock.Advance(TimeSpan.FromMinutes(5));
        await DispatchAndDeliverAsync();
        delivered = Deliveries(cmdb, all.Secret);

        var feed = (await FeedAsync(reader, null)).Where(e => ChangeEvents.Of(e) is not null).ToList();
        Assert.Contains(missed, e => e.Kind == "timeline" && e.Change == "ifiEnabled" && e.NewValue == "N");
        Assert.Contains(missed, e => e.Kind == "status" && e.NewValue == "NonCompliant");
        Assert.Contains(beforeOutage, d => d.Event == "registered");
        Assert.Contains(beforeOutage, d => d.Event == "statusChanged");
        Assert.Equal(feed.Select(e => e.Id).Order(StringComparer.Ordinal), delivered.Select(d => d.Id).Order(StringComparer.Ordinal));
        Assert.Equal(delivered.Count, delivered.Select(d => d.Id).Distinct().Count());
        Assert.Equal(delivered.Count, delivered.Select(d => d.DeliveryId).Distinct().Count());
        Assert.Equal(missed.Select(e => e.Id).Order(StringComparer.Ordinal), delivered.Skip(beforeOutage.Count).Select(d => d.Id).Order(StringComparer.Ordinal));
        Assert.All(delivered, d => Assert.Equal(ChangeEvents.NameOf(ChangeEvents.Of(d.Change)!.Value), d.Event));
        Assert.Contains(failing, r => r.LastError?.Contains("Webhook 'cmdb' could not be reached", StringComparison.Ordinal) == true);

        var watched = Deliveries(watcher, ifiOnly.Secret);
        Assert.Equal("ifiLost", Assert.Single(watched).Event);

        var rows = (await host.OutboxAsync()).Where(r => r.Kind == AlertNoticeKind.Change).ToList();
        Assert.All(rows, r => Assert.Equal(OutboxStatus.Sent, r.Status));
        Assert.Equal(delivered.Count + watched.Count, rows.Count);

        // The secret and the URL's path are shown once, at creation, and nowhere after.
        var listed = await admin.GetStringAsync("/api/v1/change-webhooks");
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(), null, 500, CancellationToken.None);
        var audited = string.Join('\n', audit.Select(e => $"{e.Action} {e.Target} {e.Before} {e.After}"));
        foreach (var secret in new[] { all.Secret, ifiOnly.Secret, "s3cr3t-path-token" })
        {
            Assert.DoesNotContain(secret, listed, StringComparison.Ordinal);
            Assert.DoesNotContain(secret, audited, StringComparison.Ordinal);
            Assert.DoesNotContain(secret, host.Logs.All, StringComparison.Ordinal);
            Assert.DoesNotContain(rows, r => r.TextBody.Contains(secret, StringComparison.Ordinal) || r.LastError?.Contains(secret, StringComparison.Ordinal) == true);
        }
        Assert.Contains($"\"urlOrigin\":\"http://127.0.0.1:{cmdb.Port}\"", listed, StringComparison.Ordinal);
        await using (var connection = await host.Services.GetRequiredService<IfiDashboard.Store.IDbConnectionFactory>().OpenAsync(CancellationToken.None))
        {
            var stored = string.Join('\n', await Dapper.SqlMapper.QueryAsync<string>(connection,
                "SELECT name || ' ' || url_origin || ' ' || url_protected || ' ' || secret_protected || ' ' || events FROM change_webhooks;"));
            Assert.Contains("cmdb", stored, StringComparison.Ordinal);
            foreach (var secret in new[] { all.Secret, ifiOnly.Secret, "s3cr3t-path-token", "hooks/ifi" })
                Assert.DoesNotContain(secret, stored, StringComparison.Ordinal);
        }
        Assert.Equal(2, audit.Count(e => e.Action == AuditActions.ChangeWebhookCreated));
    }

    [Fact]
    public async Task A_subscription_is_refused_an_insecure_url_unknown_events_and_a_key_without_admin_and_nothing_is_stored()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = Name, Profile = "2019", IfiEnabled = true });
        await using var host = bed.StartHost(smtp, settings => settings["Api:BootstrapAdminKey"] = AdminKey);
        var admin = host.CreateClient();
        admin.DefaultRequestHeaders.Add("X-Api-Key", AdminKey);
        var reader = host.Client(await CreateReadKeyAsync(admin));

        var plainHttp = await admin.PostAsJsonAsync("/api/v1/change-webhooks", new { name = "cmdb", url = "http://cmdb.example.test/hooks" });
        var unknownEvent = await admin.PostAsJsonAsync("/api/v1/change-webhooks", new { name = "cmdb", url = "https://cmdb.example.test/hooks", events = new[] { "everything" } });
        var badName = await admin.PostAsJsonAsync("/api/v1/change-webhooks", new { name = "\u202ecmdb", url = "https://cmdb.example.test/hooks" });
        var notAdmin = await reader.PostAsJsonAsync("/api/v1/change-webhooks", new { name = "cmdb", url = "https://cmdb.example.test/hooks" });
        var first = await admin.PostAsJsonAsync("/api/v1/change-webhooks", new { name = "cmdb", url = "https://cmdb.example.test/hooks" });
        var sameName = await admin.PostAsJsonAsync("/api/v1/change-webhooks", new { name = "cmdb", url = "https://other.example.test/hooks" });
        var id = (await first.Content.ReadFromJsonAsync<CreatedChangeWebhookResponse>(Web))!.Id;
        var deleted = await admin.DeleteAsync($"/api/v1/change-webhooks/{id}");
        var deletedAgain = await admin.DeleteAsync($"/api/v1/change-webhooks/{id}");

        await ProblemAssert.IsProblemAsync(plainHttp, 400, "url");
        Assert.Contains("plain http is accepted for loopback receivers only", await plainHttp.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        await ProblemAssert.IsProblemAsync(unknownEvent, 400, "events[0]");
        await ProblemAssert.IsProblemAsync(badName, 400, "name");
        await ProblemAssert.IsProblemAsync(notAdmin, 403, null);
        Assert.Equal(HttpStatusCode.Created, first.StatusCode);
        await ProblemAssert.IsProblemAsync(sameName, 409, null);
        Assert.Equal(HttpStatusCode.NoContent, deleted.StatusCode);
        await ProblemAssert.IsProblemAsync(deletedAgain, 404, null);
        Assert.Equal("[]", await admin.GetStringAsync("/api/v1/change-webhooks"));
    }

    static async Task<string> CreateReadKeyAsync(HttpClient admin)
    {
        var response = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "reader", scopes = new[] { "read" } });
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<IfiDashboard.Server.Api.Keys.CreatedApiKeyResponse>())!.Key;
    }
}

file static class HostClients
{
    public static HttpClient Client(this AlertsHost host, string key)
    {
        var client = host.CreateClient();
        IfiDashboard.Server.Tests.Security.TestSignIn.Anonymous(client);
        client.DefaultRequestHeaders.Add("X-Api-Key", key);
        return client;
    }
}

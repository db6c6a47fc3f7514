using System.Net;
using System.Text.Json;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Server.Alerts;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// Alerts to Teams, Slack and a signed JSON receiver, each a real HTTP server on loopback, beside the mail: the same
/// rules, routes and outbox, one row per channel, each delivered once even across a receiver outage.
/// </summary>
public sealed class AlertWebhookTests
{
    const string Name = "sql-prod-01";
    const string Secret = "a-shared-secret-of-at-least-32-chars";
    /// <summary>The token part of a chat webhook URL: a credential that must not show up in the store or a log.</summary>
    const string Token = "sig=Zm9yZ2VkLXRva2VuLXRoYXQtaXMtc2VjcmV0";

    static ScenarioInstance Instance() => new() { Name = Name, Profile = "2019", IfiEnabled = true };

    static Action<Dictionary<string, string?>> Webhooks(WebhookReceiver teams, WebhookReceiver slack, WebhookReceiver json) => settings =>
    {
        settings["Alerts:Routes:0:To:1"] = "webhook:teams";
        settings["Alerts:Routes:0:To:2"] = "webhook:slack";
        settings["Alerts:Routes:0:To:3"] = "webhook:siem";
        settings["Alerts:Webhooks:teams:Kind"] = "Teams";
        settings["Alerts:Webhooks:teams:Url"] = teams.Url($"workflows/triggers/manual/paths/invoke?{Token}");
        settings["Alerts:Webhooks:slack:Kind"] = "Slack";
        settings["Alerts:Webhooks:slack:Url"] = slack.Url($"services/T000/B000/{Token}");
        settings["Alerts:Webhooks:siem:Kind"] = "Json";
        settings["Alerts:Webhooks:siem:Url"] = json.Url("ifi-alerts");
        settings["Alerts:Webhooks:siem:Secret"] = Secret;
    };

    static async Task LoseIfiAsync(AlertsTestBed bed, AlertsHost host)
    {
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();
    }

    [Fact]
    public async Task Webhook_deliveries_export_spans_without_the_urls_path_or_query()
    {
        await using var receiver = await Observability.OtlpReceiver.StartAsync();
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using WebhookReceiver teams = new(), slack = new(), json = new();
        await teams.StartAsync();
        await slack.StartAsync();
        await json.StartAsync();
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp, settings =>
        {
            Webhooks(teams, slack, json)(settings);
            settings["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.Endpoint;
            settings["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf";
            settings["OTEL_BSP_SCHEDULE_DELAY"] = "100";
        });

        await LoseIfiAsync(bed, host);
        await Eventually.WaitAsync(() => teams.Received.Count + slack.Received.Count + json.Received.Count, n => n >= 3);
        var ports = new[] { teams.Port, slack.Port, json.Port }.Select(p => p.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToHashSet();
        var (spans, _) = await receiver.WaitForAsync((spans, _) =>
            spans.Count(s => s.Scope == "System.Net.Http" && s.Attributes.TryGetValue("server.port", out var port) && ports.Contains(port)) >= 3,
            TimeSpan.FromSeconds(60));

        // The receivers run in this process, so the server's provider also records their incoming requests: not the server's.
        bool ReceiversOwn(Observability.ReceivedSpan span) =>
            span.Scope == "Microsoft.AspNetCore" && span.Attributes.TryGetValue("server.port", out var port) && ports.Contains(port);
        var deliveries = spans.Where(s => s.Scope == "System.Net.Http" && s.Attributes.TryGetValue("server.port", out var port) && ports.Contains(port)).ToList();
        Assert.True(deliveries.Count >= 3, $"{deliveries.Count} webhook spans exported");
        Assert.Contains(deliveries, s => s.Attributes.GetValueOrDefault("url.full") == $"http://127.0.0.1:{slack.Port}");
        var exported = spans.Where(s => !ReceiversOwn(s)).SelectMany(s => s.Attributes.Select(a => a.Key + "=" + a.Value).Append(s.Name)).ToList();
        foreach (var secret in new[] { Token, "services/T000/B000", "workflows/triggers", "ifi-alerts" })
            Assert.DoesNotContain(exported, value => value.Contains(secret, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Losing_ifi_posts_one_adaptive_card_one_slack_message_and_one_signed_json_alert_beside_the_mail()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using WebhookReceiver teams = new(), slack = new(), json = new();
        await teams.StartAsync();
        await slack.StartAsync();
        await json.StartAsync();
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp, Webhooks(teams, slack, json));

        await LoseIfiAsync(bed, host);
        await Eventually.WaitAsync(() => teams.Received.Count + slack.Received.Count + json.Received.Count, n => n >= 3);
        await host.SettleAsync();

        var subject = $"[IFI] IFI off on {Name} (Production)";
        var link = $"https://ifi.example.test/instances/{host.IdOf(Name)}";
        Assert.Equal(subject, Assert.Single(await smtp.WaitForAsync(1)).Subject);

        var card = JsonDocument.Parse(Assert.Single(teams.Received).Body).RootElement;
        var attachment = card.GetProperty("attachments")[0];
        Assert.Equal("message", card.GetProperty("type").GetString());
        Assert.Equal("application/vnd.microsoft.card.adaptive", attachment.GetProperty("contentType").GetString());
        Assert.Equal("AdaptiveCard", attachment.GetProperty("content").GetProperty("type").GetString());
        Assert.Equal(subject, attachment.GetProperty("content").GetProperty("body")[0].GetProperty("text").GetString());
        Assert.Equal(link, attachment.GetProperty("content").GetProperty("actions")[0].GetProperty("url").GetString());

        var message = JsonDocument.Parse(Assert.Single(slack.Received).Body).RootElement;
        Assert.Equal(subject, message.GetProperty("text").GetString());
        Assert.Contains($"<{link}|Open in IfiDashboard>", message.GetProperty("blocks")[0].GetProperty("text").GetProperty("text").GetString(), StringComparison.Ordinal);

        var signed = Assert.Single(json.Received);
        var timestamp = signed.Headers[WebhookSender.TimestampHeader];
        Assert.Equal("sha256=" + WebhookSender.Signature(Secret, timestamp, signed.Body), signed.Headers[WebhookSender.SignatureHeader]);
        var alert = JsonDocument.Parse(signed.Body).RootElement;
        Assert.Equal(("Opened", Name, link), (alert.GetProperty("kind").GetString(), alert.GetProperty("displayName").GetString(), alert.GetProperty("link").GetString()));
        Assert.Equal(Name, alert.GetProperty("instanceName").GetString()); // the deprecated alias (docs/api.md), until v2
        Assert.Equal(alert.GetProperty("id").GetString(), signed.Headers[WebhookSender.DeliveryHeader]);

        var rows = await host.OutboxAsync();
        Assert.Equal(4, rows.Count);
        Assert.All(rows, r => Assert.Equal(OutboxStatus.Sent, r.Status));
        Assert.DoesNotContain(rows, r => string.Join(' ', r.Recipients).Contains(Token, StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_receiver_that_is_down_gets_the_alert_once_when_it_is_back_and_the_mail_does_not_wait_for_it()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using WebhookReceiver teams = new(), slack = new(), json = new();
        await slack.StartAsync();
        await json.StartAsync();
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp, Webhooks(teams, slack, json));

        // Teams is not listening yet.
        await LoseIfiAsync(bed, host);
        var failing = await Eventually.WaitAsync(host.OutboxAsync,
            rows => rows.Any(r => r.Recipients.SequenceEqual(["webhook:teams"]) && r.Attempts >= 1));
        var mailWhileDown = await smtp.WaitForAsync(1);
        var teamsRow = failing.Single(r => r.Recipients.SequenceEqual(["webhook:teams"]));

        await teams.StartAsync();
        bed.Clock.Advance(TimeSpan.FromMinutes(5));
        await host.DeliverAsync();
        await host.SettleAsync();
        bed.Clock.Advance(TimeSpan.FromMinutes(5));
        await host.SettleAsync();

        Assert.Single(mailWhileDown);
        Assert.Equal(OutboxStatus.Pending, teamsRow.Status);
        Assert.Contains("Webhook 'teams' could not be reached", teamsRow.LastError, StringComparison.Ordinal);
        Assert.DoesNotContain(Token, teamsRow.LastError, StringComparison.Ordinal);
        Assert.DoesNotContain(Token, host.Logs.All, StringComparison.Ordinal);
        Assert.Single(teams.Received);
        Assert.Single(slack.Received);
        Assert.Single(json.Received);
        Assert.Single(smtp.Messages());
        var sent = (await host.OutboxAsync()).Single(r => r.Recipients.SequenceEqual(["webhook:teams"]));
        Assert.Equal((OutboxStatus.Sent, 2), (sent.Status, sent.Attempts));
    }

    [Fact]
    public async Task A_webhook_that_answers_not_found_is_given_up_at_once_naming_the_setting()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using WebhookReceiver teams = new(), slack = new(), json = new();
        await teams.StartAsync();
        await slack.StartAsync();
        await json.StartAsync();
        slack.Status = HttpStatusCode.NotFound;
        await using var bed = AlertsTestBed.Create(Instance());
        await using var host = bed.StartHost(smtp, Webhooks(teams, slack, json));

        await LoseIfiAsync(bed, host);
        var rows = await Eventually.WaitAsync(host.OutboxAsync, r => r.Count == 4 && r.All(e => e.Status != OutboxStatus.Pending));

        var slackRow = rows.Single(r => r.Recipients.SequenceEqual(["webhook:slack"]));
        Assert.Equal((OutboxStatus.Failed, 1), (slackRow.Status, slackRow.Attempts));
        Assert.Contains("answered 404", slackRow.LastError, StringComparison.Ordinal);
        Assert.Contains("check Alerts:Webhooks:slack", slackRow.LastError, StringComparison.Ordinal);
        Assert.Equal(3, rows.Count(r => r.Status == OutboxStatus.Sent));
    }

    [Theory]
    [InlineData("Url", "http://chat.example.test/hook", "Alerts:Webhooks:siem:Url must use https")]
    [InlineData("Secret", "short", "Alerts:Webhooks:siem:Secret must be at least 32 characters")]
    [InlineData("Route", "webhook:nobody", "Alerts:Webhooks:nobody is not configured")]
    public void A_misconfigured_webhook_stops_start_up_naming_the_setting(string what, string value, string expected)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Alerts:Webhooks:siem:Kind"] = "Json",
            ["Alerts:Webhooks:siem:Url"] = what == "Url" ? value : "https://siem.example.test/ifi",
            ["Alerts:Webhooks:siem:Secret"] = what == "Secret" ? value : Secret,
            ["Alerts:DefaultTo:0"] = what == "Route" ? value : "webhook:siem",
        };
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();
        using var provider = new ServiceCollection().AddLogging().AddIfiAlerts(configuration).BuildServiceProvider();

        // What the host runs at start for options registered with ValidateOnStart.
        var error = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IStartupValidator>().Validate());

        Assert.Contains(expected, Assert.Single(error.Failures), StringComparison.Ordinal);
    }
}

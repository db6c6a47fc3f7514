using AngleSharp.Html.Parser;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>The relay's login over STARTTLS, through the whole server: where the password must never appear, and what the pages show.</summary>
public sealed class AlertPagesAndSecretsTests
{
    const string Name = "sql-prod-02";
    const string User = "alerts-relay";
    const string RelayPassword = "Relay-Secret-91f0!";

    static Action<Dictionary<string, string?>> Login(SmtpSink sink, string password) => settings =>
    {
        settings["Alerts:Smtp:Host"] = "localhost";
        settings["Alerts:Smtp:Security"] = "StartTls";
        settings["Alerts:Smtp:ServerCertificatePath"] = sink.Certificate!.CertificatePath;
        settings["Alerts:Smtp:UserName"] = User;
        settings["Alerts:Smtp:Password"] = password;
    };

    [Fact]
    public async Task Starttls_login_delivers_the_alert_and_the_test_email_and_the_password_is_in_no_store_log_or_page()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.StartTls, User, RelayPassword);
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = Name, Profile = "2022", IfiEnabled = true });
        await using var host = bed.StartHost(smtp, Login(smtp, RelayPassword));
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();
        bed.Fleet.Update(Name, i => i.IfiEnabled = false);
        await host.PollAndAssessAsync();

        var alert = Assert.Single(await smtp.WaitForAsync(1));
        Assert.True(alert.Tls && alert.Authenticated);

        var client = host.CreateClient();
        var settingsHtml = await client.GetStringAsync("/alerts/settings");
        var form = new HtmlParser().ParseDocument(settingsHtml).QuerySelector("form[data-form='test-email']")!;
        var fields = form.QuerySelectorAll("input[type=hidden]").ToDictionary(i => i.GetAttribute("name")!, i => i.GetAttribute("value") ?? "");
        fields["To"] = AlertsHost.Everyone;
        var response = await client.PostAsync("/alerts/settings", new FormUrlEncodedContent(fields));
        var resultHtml = await response.Content.ReadAsStringAsync();

        Assert.True(response.IsSuccessStatusCode, resultHtml);
        var result = new HtmlParser().ParseDocument(resultHtml).QuerySelector("[data-test-result]")!;
        Assert.Equal("sent", result.GetAttribute("data-test-result"));
        var test = (await smtp.WaitForAsync(2))[1];
        Assert.Equal([AlertsHost.Everyone], test.RcptTos);
        Assert.Equal("[IFI] Test email from IfiDashboard", test.Subject);
        var audited = Assert.Single(await host.Services.GetRequiredService<AuditLog>()
            .QueryAsync(new AuditFilter(Action: AuditActions.TestEmailSent), null, 10, CancellationToken.None));
        Assert.Equal(AlertsHost.Everyone, audited.Target);
        Assert.Contains("\"accepted\":true", audited.After, StringComparison.Ordinal);

        var historyHtml = await client.GetStringAsync("/alerts");
        Assert.Equal(2, new HtmlParser().ParseDocument(historyHtml).QuerySelectorAll("tr[data-status='Sent']").Length);
        Assert.Contains("localhost", settingsHtml, StringComparison.Ordinal);
        Assert.Contains("password set", settingsHtml, StringComparison.Ordinal);
        foreach (var text in new[] { settingsHtml, resultHtml, historyHtml, await StoreDump.AllTextAsync(host.Services), host.Logs.All })
            Assert.DoesNotContain(RelayPassword, text, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_wrong_password_is_recorded_as_a_failure_that_says_what_to_fix_and_shown_in_the_history()
    {
        const string wrong = "Wrong-Relay-Pw-55e1";
        await using var smtp = await SmtpSink.StartAsync(SinkMode.StartTls, User, RelayPassword);
        await using var bed = AlertsTestBed.Create(new ScenarioInstance { Name = Name, Profile = "2019", IfiEnabled = false });
        await using var host = bed.StartHost(smtp, Login(smtp, wrong));
        await host.RegisterFleetAsync();
        await host.PollAndAssessAsync();

        var rows = await Eventually.WaitAsync(host.OutboxAsync, r => r.Count == 1 && r[0].Attempts >= 1);
        var row = Assert.Single(rows);
        Assert.Equal(OutboxStatus.Pending, row.Status);
        Assert.Contains("user name or password is wrong", row.LastError, StringComparison.Ordinal);
        Assert.Contains("Alerts:Smtp:Password", row.LastError, StringComparison.Ordinal);
        Assert.Empty(smtp.Messages());

        var historyHtml = await host.CreateClient().GetStringAsync("/alerts");
        var delivery = new HtmlParser().ParseDocument(historyHtml).QuerySelector($"tr[data-outbox='{row.Id}'] .delivery")!;
        Assert.Contains("user name or password is wrong", delivery.TextContent, StringComparison.Ordinal);
        foreach (var text in new[] { historyHtml, await StoreDump.AllTextAsync(host.Services), host.Logs.All })
            Assert.DoesNotContain(wrong, text, StringComparison.Ordinal);
    }
}

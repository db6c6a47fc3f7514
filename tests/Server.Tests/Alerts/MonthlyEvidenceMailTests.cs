using System.Globalization;
using System.Net;
using System.Security.Cryptography;
using System.Text.Json;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Reports;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>The previous month's evidence report by mail, through the outbox to a real SMTP server, as the clock turns a month.</summary>
public sealed class MonthlyEvidenceMailTests
{
    const string Auditor = "auditor@example.test";

    [Fact]
    public async Task The_report_is_mailed_once_when_a_month_begins_not_again_after_a_restart_and_its_files_are_the_apis()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            new ScenarioInstance { Name = "sql-prod-on", Profile = "2019", IfiEnabled = true },
            new ScenarioInstance { Name = "sql-old", Profile = "2014-SP2", IfiEnabled = true });
        void Monthly(Dictionary<string, string?> s)
        {
            s["Reports:Evidence:Monthly:To:0"] = Auditor;
            s["Reports:Evidence:Monthly:Environment"] = "Production";
        }
        var now = bed.Clock.GetUtcNow();
        var month = new DateTimeOffset(now.Year, now.Month, 1, 0, 0, 0, TimeSpan.Zero);
        var nextMonth = month.AddMonths(1);
        var query = $"from={month:yyyy-MM-dd}&to={nextMonth:yyyy-MM-dd}&environment=Production";

        var first = bed.StartHost(smtp, Monthly);
        await first.RegisterFleetAsync();
        await first.PollAndAssessAsync();
        Assert.DoesNotContain(await first.OutboxAsync(), row => row.Kind == AlertNoticeKind.EvidenceReport);

        // Five seconds into the first day of the next month: the mailer's timer, set for midnight, fires.
        bed.Clock.SetUtcNow(nextMonth.AddSeconds(5));
        var mail = (await Eventually.WaitAsync(() => ToAuditor(smtp), m => m.Count > 0)).Single();
        using var api = await first.CreateClient().GetAsync("/api/v1/reports/evidence?" + query);
        using var csv = await first.CreateClient().GetAsync("/api/v1/reports/evidence?" + query + "&format=csv");
        Assert.Equal(HttpStatusCode.OK, api.StatusCode);
        var apiBody = await api.Content.ReadAsByteArrayAsync();
        var hash = api.Headers.GetValues(EvidenceReportEndpoints.ReportHashHeader).Single();
        await first.DisposeAsync();

        var json = mail.Attachments.Single(a => a.FileName == $"ifi-evidence-{month:yyyy-MM}.json");
        var csvFile = mail.Attachments.Single(a => a.FileName == $"ifi-evidence-{month:yyyy-MM}.csv");
        Assert.Equal(Convert.ToHexStringLower(SHA256.HashData(apiBody)), Convert.ToHexStringLower(SHA256.HashData(json.Content)));
        Assert.Equal(hash, JsonDocument.Parse(json.Content).RootElement.GetProperty("manifest").GetProperty("report").GetString());
        Assert.Equal(await csv.Content.ReadAsByteArrayAsync(), csvFile.Content);
        Assert.Contains(hash, mail.Text, StringComparison.Ordinal);
        Assert.Contains($"IFI evidence report, {month.ToString("MMMM yyyy", CultureInfo.InvariantCulture)} (Production)", mail.Subject, StringComparison.Ordinal);
        Assert.Contains($"Printable report: {AlertsHost.DashboardUrl}reports/evidence?{query}", mail.Text, StringComparison.Ordinal);
        Assert.Contains("sql-prod-on", System.Text.Encoding.UTF8.GetString(csvFile.Content), StringComparison.Ordinal);

        // A restart on the same store, still on the first day: the month's row is there, so nothing is written or sent.
        await using var second = bed.StartHost(smtp, Monthly);
        Assert.False(await second.Services.GetRequiredService<MonthlyEvidenceMail>().WriteDueAsync(CancellationToken.None));
        await second.DeliverAsync();
        Assert.Single(ToAuditor(smtp));
        Assert.Single(await second.OutboxAsync(), row => row.Kind == AlertNoticeKind.EvidenceReport);
    }

    static List<ReceivedMail> ToAuditor(SmtpSink smtp) => smtp.Messages().Where(m => m.RcptTos.Contains(Auditor)).ToList();

    [Theory]
    [InlineData("webhook:teams", true, "Reports:Evidence:Monthly:To:0 ('webhook:teams') is not a mail address.")]
    [InlineData("not an address", true, "Reports:Evidence:Monthly:To:0 ('not an address') is not a mail address.")]
    [InlineData(Auditor, false, "Reports:Evidence:Monthly:To is set, but mail goes out only through the alerts' relay")]
    public void A_bad_setting_is_named_at_start(string to, bool alertsEnabled, string problem)
    {
        var options = new MonthlyEvidenceOptions { To = [to] };
        var alerts = new IfiDashboard.Server.Alerts.AlertOptions { Enabled = alertsEnabled };

        var result = new MonthlyEvidenceValidation(Options.Create(alerts)).Validate(null, options);

        Assert.True(result.Failed);
        Assert.Contains(problem, result.FailureMessage, StringComparison.Ordinal);
    }
}

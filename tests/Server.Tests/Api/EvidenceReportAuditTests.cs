using System.Diagnostics;
using System.Security.Claims;
using System.Text.Json;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Reports;
using IfiDashboard.Server.Tests.Alerts;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Server.Reports;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// The evidence report of a closed four-day period an auditor would question: an instance registered mid-period, a
/// day on which no collector polled, and an instance whose IFI trace flag 1806 turns off. The real server and collector
/// poll a simulated fleet over TDS while a test clock moves through the days.
/// </summary>
public sealed class EvidenceReportAuditTests
{
    const int SixHours = 6 * 3600;

    static readonly ClaimsPrincipal Dba = new(new ClaimsIdentity(
        [new Claim(ClaimTypes.Name, "dba@bank.test"), new Claim(ClaimTypes.Role, DashboardRoles.Administrator)], "test"));

    [Fact]
    public async Task The_report_shows_each_days_coverage_what_decided_ifi_and_readable_rules_is_byte_identical_and_its_signature_verifies()
    {
        await using var smtp = await SmtpSink.StartAsync(SinkMode.None);
        await using var bed = AlertsTestBed.Create(
            new ScenarioInstance { Name = "tf1806", Profile = "2019", IfiEnabled = true, GlobalTraceFlags = [1806] },
            new ScenarioInstance { Name = "steady", Profile = "2019", IfiEnabled = true },
            new ScenarioInstance { Name = "late", Profile = "2019", IfiEnabled = true });
        await using var host = bed.StartHost(smtp);
        var clock = bed.Clock;
        var day0 = new DateTimeOffset(clock.GetUtcNow().UtcDateTime.Date, TimeSpan.Zero);
        async Task PollAsync()
        {
            await host.Services.GetRequiredService<CollectorService>().PollDueOnceAsync(CancellationToken.None);
            await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        }

        // Day 0: two instances registered, polled every six hours (18 hours without a poll is a gap).
        await SimulatedFleetRegistration.RegisterAsync(host.Services, bed.Fleet, SixHours, name => name != "late");
        await host.Services.GetRequiredService<IPolicyEditor>().SaveRulesAsync(
            [new PolicyRule { Name = "production-tier", Desired = DesiredState.Required, Environment = "Production", Tags = [] }], Dba, CancellationToken.None);
        await PollAsync();
        while (clock.GetUtcNow().AddSeconds(SixHours) < day0.AddDays(1))
        {
            clock.Advance(TimeSpan.FromSeconds(SixHours));
            await PollAsync();
        }
        // Day 1: the server runs and assesses, but no collector polls.
        clock.SetUtcNow(day0.AddDays(1).AddHours(12));
        await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        // Day 2: polls again from 01:00, when a third instance is registered; every six hours until the period is over.
        clock.SetUtcNow(day0.AddDays(2).AddHours(1));
        await PollAsync();
        await SimulatedFleetRegistration.RegisterAsync(host.Services, bed.Fleet, SixHours, name => name == "late");
        await PollAsync();
        while (clock.GetUtcNow() < day0.AddDays(4).AddHours(1))
        {
            clock.Advance(TimeSpan.FromSeconds(SixHours));
            await PollAsync();
        }

        var client = host.CreateClient();
        var query = $"from={day0:yyyy-MM-dd}&to={day0.AddDays(4):yyyy-MM-dd}";
        var first = await client.GetByteArrayAsync("/api/v1/reports/evidence?" + query);
        var second = await client.GetByteArrayAsync("/api/v1/reports/evidence?" + query);
        var html = await client.GetStringAsync("/reports/evidence?" + query);

        Assert.Equal(first, second);
        var report = JsonDocument.Parse(first).RootElement;
        Assert.True(report.GetProperty("period").GetProperty("isClosed").GetBoolean());
        var instances = report.GetProperty("instances").EnumerateArray().ToDictionary(i => i.GetProperty("name").GetString()!);
        string Days(string name) => string.Join(", ", instances[name].GetProperty("days").EnumerateArray().Select(d =>
            d.GetProperty("coverage").GetString() + (d.GetProperty("notMonitoredBecause").GetString() is { } why ? $" ({why})" : "")));
        Assert.Equal("Monitored, NotMonitored (CollectorSilent), MonitoredWithGaps, Monitored", Days("steady"));
        Assert.Equal("Monitored, NotMonitored (CollectorSilent), MonitoredWithGaps, Monitored", Days("tf1806"));
        Assert.Equal("NotMonitored (BeforeRegistration), NotMonitored (BeforeRegistration), Monitored, Monitored", Days("late"));
        Assert.Equal(2, instances["late"].GetProperty("daysByCoverage").GetProperty("NotMonitored").GetInt32());

        // What decided IFI: the trace flag overrides the DMV's 'Y'.
        string Evidence(string name) => instances[name].GetProperty("lastPoll").GetProperty("ifiEvidence").GetString()!;
        Assert.Equal((EvidenceReports.TraceFlagEvidence, "Disabled"),
            (Evidence("tf1806"), instances["tf1806"].GetProperty("lastPoll").GetProperty("ifiState").GetString()));
        Assert.Equal(EvidenceReports.DmvEvidence, Evidence("steady"));
        Assert.Equal("NonCompliant", instances["tf1806"].GetProperty("worstStatus").GetString());

        // Rules and changes in words on the page; their JSON only in the machine-readable file.
        var document = new AngleSharp.Html.Parser.HtmlParser().ParseDocument(html);
        AngleSharp.Dom.IParentNode page = document.QuerySelectorAll("blazor-ssr template").OfType<AngleSharp.Html.Dom.IHtmlTemplateElement>()
            .LastOrDefault()?.Content ?? (AngleSharp.Dom.IParentNode)document;
        const string rule = "1. Rule \"production-tier\": IFI is required on instances with environment Production.";
        Assert.Contains(rule, report.GetProperty("policyVersions")[0].GetProperty("sentences").EnumerateArray().Select(s => s.GetString()));
        Assert.Contains("\"desired\":\"Required\"", report.GetProperty("policyVersions")[0].GetProperty("rules").GetString(), StringComparison.Ordinal);
        var policyText = page.QuerySelector("[data-section=policyVersions]")!.TextContent;
        var changesText = page.QuerySelector("[data-section=changes]")!.TextContent;
        Assert.Contains(rule, policyText, StringComparison.Ordinal);
        Assert.Contains("saved policy version 1: the rules became: " + rule, changesText, StringComparison.Ordinal);
        Assert.DoesNotContain("{", policyText + changesText, StringComparison.Ordinal);
        Assert.Equal(["Not monitored (before registration) 2"], page.QuerySelectorAll("[data-instance=late] [data-coverage]")
            .Where(s => s.GetAttribute("data-coverage")!.StartsWith("Not", StringComparison.Ordinal)).Select(s => s.TextContent.Trim()));

        // The signed manifest, checked as an auditor would, with openssl.
        var manifest = await client.GetByteArrayAsync("/api/v1/reports/evidence?" + query + "&format=manifest");
        var signature = await client.GetByteArrayAsync("/api/v1/reports/evidence?" + query + "&format=signature");
        var publicKey = await client.GetStringAsync("/api/v1/reports/evidence/signing-key");
        Assert.Equal(report.GetProperty("manifest").GetProperty("signature").GetString(), Convert.ToBase64String(signature));
        var folder = Directory.CreateTempSubdirectory("ifi-evidence-signature-").FullName;
        try
        {
            await File.WriteAllBytesAsync(Path.Combine(folder, "manifest"), manifest);
            await File.WriteAllBytesAsync(Path.Combine(folder, "manifest.sig"), signature);
            await File.WriteAllTextAsync(Path.Combine(folder, "pub.pem"), publicKey);
            var verified = await OpenSslVerifyAsync(folder);
            manifest[manifest.Length / 2] ^= 0x01;
            await File.WriteAllBytesAsync(Path.Combine(folder, "manifest"), manifest);
            var tampered = await OpenSslVerifyAsync(folder);

            Assert.Equal((0, "Verified OK"), (verified.ExitCode, verified.Output.Trim()));
            Assert.NotEqual(0, tampered.ExitCode);
            Assert.Contains("Verification failure", tampered.Output, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    static async Task<(int ExitCode, string Output)> OpenSslVerifyAsync(string folder)
    {
        var start = new ProcessStartInfo("openssl", ["dgst", "-sha256", "-verify", "pub.pem", "-signature", "manifest.sig", "manifest"])
        {
            WorkingDirectory = folder,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        using var process = Process.Start(start)!;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(120));
        var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
        var error = process.StandardError.ReadToEndAsync(timeout.Token);
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await output + await error);
    }
}

using System.Globalization;
using System.Net.Mail;
using System.Text;
using System.Text.Json;
using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Server.Alerts;
using IfiDashboard.Server.Alerts.Delivery;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Server.Composition;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Reports;

/// <summary>
/// <c>Reports:Evidence:Monthly</c>: who receives the previous month's evidence report on the first day of each month
/// (UTC), and its scope. Off while <see cref="To"/> is empty.
/// </summary>
public sealed class MonthlyEvidenceOptions
{
    public const string SectionName = "Reports:Evidence:Monthly";

    public List<string> To { get; set; } = [];
    public string? Environment { get; set; }
    public string? Tag { get; set; }

    public bool Enabled => To.Count > 0;

    /// <summary>Each setting that cannot work, named; mail goes out only through the alerts' relay.</summary>
    public IEnumerable<string> Problems(AlertOptions alerts)
    {
        for (var i = 0; i < To.Count; i++)
            if (WebhookRecipient.Is(To[i]) || !MailAddress.TryCreate(To[i], out _))
                yield return $"{SectionName}:To:{i} ('{To[i]}') is not a mail address.";
        if (Enabled && !alerts.Enabled)
            yield return $"{SectionName}:To is set, but mail goes out only through the alerts' relay: set Alerts:Enabled=true and Alerts:Smtp (docs/alerts.md).";
    }
}

/// <summary>
/// On the first day of each month (the server's UTC), writes the previous month's evidence report to the alert outbox:
/// a summary with the manifest in the body, the instances' CSV and the API's JSON attached, byte for byte what
/// <c>GET /api/v1/reports/evidence</c> answers for the same period and scope. The outbox's dedupe key names the month,
/// so servers on one store, and restarts, write it once; the outbox's delivery claims the row, so it is sent once.
/// A month whose first day passes with no server running is not mailed: its report stays a request away (API or page).
/// </summary>
public sealed class MonthlyEvidenceMail(
    IEvidenceReportSource reports,
    OutboxStore outbox,
    OutboxDelivery delivery,
    IOptions<MonthlyEvidenceOptions> options,
    IOptions<AlertOptions> alerts,
    IOptions<Microsoft.AspNetCore.Http.Json.JsonOptions> json,
    TimeProvider time,
    ILogger<MonthlyEvidenceMail> logger) : BackgroundService
{
    static readonly TimeSpan RetryAfterFailure = TimeSpan.FromMinutes(1);

    /// <summary>The outbox key of a month's report: one row per month, whatever the scope or the server.</summary>
    public static string DedupeKey(DateOnly month) => $"EvidenceReport:{month:yyyy-MM}";

    /// <summary>Writes the previous month's report if today is the first of a month and it is not written yet.</summary>
    /// <returns>Whether this call wrote it.</returns>
    public async Task<bool> WriteDueAsync(CancellationToken ct)
    {
        var settings = options.Value;
        var now = time.GetUtcNow().UtcDateTime;
        if (!settings.Enabled || now.Day != 1) return false;
        var to = new DateTimeOffset(now.Year, now.Month, 1, 0, 0, 0, TimeSpan.Zero);
        var from = to.AddMonths(-1);
        var key = DedupeKey(DateOnly.FromDateTime(from.UtcDateTime));
        if (await outbox.ExistsAsync(key, ct)) return false;
        var report = await reports.BuildAsync(from, to, Blank(settings.Environment), Blank(settings.Tag), ct);
        var message = new OutboxMessage(key, AlertNoticeKind.EvidenceReport, null, null, null, settings.To, Compose(report));
        var written = await outbox.AddAsync([message], ct) > 0;
        if (written)
        {
            logger.LogInformation("Evidence report of {Month} written to the outbox for {RecipientCount} recipient(s), SHA-256 {Hash}",
                from.ToString("yyyy-MM", CultureInfo.InvariantCulture), settings.To.Count, report.Manifest.Report);
            delivery.Wake();
        }
        return written;
    }

    AlertMailContent Compose(EvidenceReport report)
    {
        var period = report.Period;
        var month = period.From.ToString("MMMM yyyy", CultureInfo.InvariantCulture);
        var scope = string.Join(", ", new[] { period.Environment, period.Tag is null ? null : "tag " + period.Tag }.OfType<string>());
        var subject = $"IFI evidence report, {month}" + (scope.Length > 0 ? $" ({scope})" : "");
        var worst = report.Instances.GroupBy(i => i.WorstStatus ?? "not assessed").OrderBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => $"{g.Key}: {g.Count()}");
        var facts = new List<(string Label, string Value)>
        {
            ("Period (UTC)", $"{period.From:yyyy-MM-dd} to {period.To:yyyy-MM-dd} (exclusive)"),
            ("Scope", scope.Length > 0 ? scope : "the whole fleet"),
            ("Instances", $"{report.Instances.Count} (worst status in the month: {string.Join(", ", worst)})"),
            ("Instance-days by coverage", string.Join(", ", report.Instances.SelectMany(i => i.Days).GroupBy(d => d.Coverage).OrderBy(g => g.Key)
                .Select(g => $"{g.Key}: {g.Count()}"))),
            ("Policy versions in force", report.PolicyVersions.Count.ToString(CultureInfo.InvariantCulture)),
            ("Waivers", report.Waivers.Count.ToString(CultureInfo.InvariantCulture)),
            ("Audited changes", report.Changes.Count.ToString(CultureInfo.InvariantCulture)),
            ("Report SHA-256", report.Manifest.Report),
        };
        var link = string.IsNullOrWhiteSpace(alerts.Value.DashboardUrl) ? null
            : $"{alerts.Value.DashboardUrl.TrimEnd('/')}/reports/evidence?from={period.From:yyyy-MM-dd}&to={period.To:yyyy-MM-dd}"
              + (period.Environment is null ? "" : "&environment=" + Uri.EscapeDataString(period.Environment))
              + (period.Tag is null ? "" : "&tag=" + Uri.EscapeDataString(period.Tag));
        const string about = "Attached: the report as JSON (what GET /api/v1/reports/evidence answers for this period and scope; "
            + "its manifest holds each section's SHA-256) and the instances as CSV. A copy made later must show the same SHA-256 "
            + "for every section but the business case, which follows the policy in force when the copy is made.";

        // The rules and the changes in words; their JSON is in the attachment only.
        var sections = new List<(string Heading, IReadOnlyList<string> Lines)>();
        foreach (var version in report.PolicyVersions)
            sections.Add(($"Policy version {version.Version}, in force from {version.InForceFrom:yyyy-MM-dd HH:mm} UTC (saved by {version.Author})", version.Sentences));
        sections.Add(($"Changes ({report.Changes.Count})", report.Changes.Count == 0 ? ["No audited change in the month."]
            : report.Changes.Select(c => $"{c.OccurredAt:yyyy-MM-dd HH:mm} UTC: {c.Sentence}").ToList()));

        var text = new StringBuilder().AppendLine(subject).AppendLine();
        foreach (var (label, value) in facts) text.AppendLine($"{label}: {value}");
        foreach (var (heading, lines) in sections)
        {
            text.AppendLine().AppendLine(heading);
            foreach (var line in lines) text.AppendLine("  " + line);
        }
        text.AppendLine().AppendLine(about);
        if (link is not null) text.AppendLine().AppendLine("Printable report: " + link);

        var html = new StringBuilder($"<h1>{MailFormat.Html(subject)}</h1><table>");
        foreach (var (label, value) in facts) html.Append($"<tr><th align=\"left\">{MailFormat.Html(label)}</th><td>{MailFormat.Html(value)}</td></tr>");
        html.Append("</table>");
        foreach (var (heading, lines) in sections)
            html.Append($"<h2>{MailFormat.Html(heading)}</h2><ul>{string.Concat(lines.Select(l => $"<li>{MailFormat.Html(l)}</li>"))}</ul>");
        html.Append($"<p>{MailFormat.Html(about)}</p>");
        if (link is not null) html.Append($"<p><a href=\"{MailFormat.Html(link)}\">Printable report</a></p>");

        var name = $"ifi-evidence-{period.From:yyyy-MM}";
        return new AlertMailContent(subject, text.ToString(), html.ToString(),
        [
            new MailAttachment(name + ".json", "application/json",
                JsonSerializer.SerializeToUtf8Bytes(report, json.Value.SerializerOptions)),
            new MailAttachment(name + ".csv", "text/csv", Encoding.UTF8.GetBytes(EvidenceReportEndpoints.InstancesCsv(report))),
        ]);
    }

    static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (!options.Value.Enabled) return;
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                TimeSpan wait;
                try
                {
                    await WriteDueAsync(stoppingToken);
                    var now = time.GetUtcNow();
                    var nextMonth = new DateTimeOffset(now.Year, now.Month, 1, 0, 0, 0, TimeSpan.Zero).AddMonths(1);
                    wait = nextMonth - now;
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    logger.LogError(e, "Writing the monthly evidence report failed; retrying in a minute");
                    wait = RetryAfterFailure;
                }
                await Task.Delay(wait, time, stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
    }
}

public static class MonthlyEvidenceMailExtensions
{
    /// <summary>The monthly evidence mail (docs/reports.md); needs <c>AddIfiAlerts</c> for the outbox and its delivery, <c>AddIfiApi</c> for the report.</summary>
    public static IServiceCollection AddIfiMonthlyEvidenceMail(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.MonthlyEvidenceMail, IfiModuleNames.Alerts, IfiModuleNames.Api);
        services.AddOptions<MonthlyEvidenceOptions>()
            .Bind(configuration.GetSection(MonthlyEvidenceOptions.SectionName))
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<MonthlyEvidenceOptions>, MonthlyEvidenceValidation>();
        services.AddSingleton<MonthlyEvidenceMail>();
        services.AddHostedService(sp => sp.GetRequiredService<MonthlyEvidenceMail>());
        return services;
    }
}

/// <summary>Refuses start-up naming each setting at fault (<see cref="MonthlyEvidenceOptions.Problems"/>).</summary>
sealed class MonthlyEvidenceValidation(IOptions<AlertOptions> alerts) : IValidateOptions<MonthlyEvidenceOptions>
{
    public ValidateOptionsResult Validate(string? name, MonthlyEvidenceOptions options) =>
        options.Problems(alerts.Value).ToList() is { Count: > 0 } problems ? ValidateOptionsResult.Fail(problems) : ValidateOptionsResult.Success;
}

using System.Text;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Alerts.Mail;

/// <summary>The daily digest for one recipient list: every instance of theirs that is not compliant, worst first.</summary>
public static class DigestComposer
{
    public static bool IsOpenProblem(InstanceAssessment instance) =>
        instance.Compliance.Status is ComplianceStatus.NonCompliant or ComplianceStatus.Unknown or ComplianceStatus.Waived;

    public static AlertMailContent Compose(DateOnly day, IReadOnlyList<InstanceAssessment> instances, AlertOptions options)
    {
        var rows = instances
            .OrderBy(i => i.Compliance.Status switch { ComplianceStatus.NonCompliant => 0, ComplianceStatus.Unknown => 1, _ => 2 })
            .ThenBy(i => i.Registration.Name, StringComparer.OrdinalIgnoreCase)
            .ToList();
        var headline = $"IFI digest {day:yyyy-MM-dd}: {Count(rows, ComplianceStatus.NonCompliant)} non-compliant, " +
            $"{Count(rows, ComplianceStatus.Unknown)} unknown, {Count(rows, ComplianceStatus.Waived)} waived";

        var text = new StringBuilder().AppendLine(headline).AppendLine();
        var html = new StringBuilder("<!DOCTYPE html><html><body style=\"font-family:Segoe UI,Arial,sans-serif;font-size:14px\">");
        html.Append("<h2>").Append(MailFormat.Html(headline)).Append("</h2><table style=\"border-collapse:collapse\">")
            .Append("<tr><th align=\"left\">Instance</th><th align=\"left\">Environment</th><th align=\"left\">Status</th><th align=\"left\">Why</th><th align=\"left\">Time lost, 30 days</th></tr>");
        foreach (var row in rows)
        {
            var link = MailFormat.InstanceLink(options.DashboardUrl, row.Registration.Id);
            var lost = row.TimeLost.Show30DaysWithEvidence(MailFormat.Duration);
            text.Append("- ").Append(row.Registration.Name).Append(" (").Append(row.Registration.Environment).Append("): ")
                .Append(row.Compliance.Status).Append(" - ").Append(row.Compliance.Explanation).Append("; time lost ").Append(lost);
            if (link is not null) text.Append(" - ").Append(link);
            text.AppendLine();
            var name = MailFormat.Html(row.Registration.Name);
            html.Append("<tr><td style=\"padding:2px 8px 2px 0\">")
                .Append(link is null ? name : $"<a href=\"{MailFormat.Html(link)}\">{name}</a>")
                .Append("</td><td style=\"padding:2px 8px\">").Append(MailFormat.Html(row.Registration.Environment))
                .Append("</td><td style=\"padding:2px 8px\">").Append(row.Compliance.Status)
                .Append("</td><td style=\"padding:2px 8px\">").Append(MailFormat.Html(row.Compliance.Explanation))
                .Append("</td><td style=\"padding:2px 8px\">").Append(MailFormat.Html(lost)).Append("</td></tr>");
        }
        html.Append("</table></body></html>");
        return new AlertMailContent("[IFI] " + headline, text.ToString(), html.ToString());
    }

    static int Count(List<InstanceAssessment> rows, ComplianceStatus status) => rows.Count(r => r.Compliance.Status == status);
}

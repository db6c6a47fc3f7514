using System.Text;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Alerts.Mail;

/// <summary>
/// One mail for many alerts of one recipient list, a line per alert: an alert storm (<see cref="AlertNoticeKind.Grouped"/>),
/// or the problems newly registered instances were found with (<see cref="AlertNoticeKind.Baseline"/>).
/// </summary>
public static class GroupedComposer
{
    public static AlertMailContent Compose(IReadOnlyList<AlertNotice> notices, AlertOptions options, DateTimeOffset now)
    {
        var counts = string.Join(", ", notices.GroupBy(n => n.Kind).OrderBy(g => g.Key)
            .Select(g => $"{g.Count()} {Word(g.Key)}"));
        var headline = $"{notices.Count} IFI alerts at once ({counts})";
        var explanation = $"More than {options.Storm.Threshold} alerts for these recipients within " +
            $"{MailFormat.Duration(options.Storm.Window)}, so they come together in one mail (Alerts:Storm).";
        return Compose(notices, options, now, headline, explanation);
    }

    /// <param name="notices">Baseline notices only: each instance's first assessment after registration.</param>
    public static AlertMailContent ComposeBaseline(IReadOnlyList<AlertNotice> notices, AlertOptions options, DateTimeOffset now)
    {
        var instances = notices.Select(n => n.Instance.Registration.Id).Distinct().Count();
        var headline = $"Baseline: {instances} newly registered instance{(instances == 1 ? "" : "s")} with IFI problems";
        const string explanation = "The first assessment of these instances after registration found these problems. " +
            "They are the starting point, listed once here; from now on each change is alerted on its own.";
        return Compose(notices, options, now, headline, explanation);
    }

    static AlertMailContent Compose(IReadOnlyList<AlertNotice> notices, AlertOptions options, DateTimeOffset now,
        string headline, string explanation)
    {

        var text = new StringBuilder().AppendLine(headline).AppendLine(explanation).AppendLine();
        var html = new StringBuilder("<!DOCTYPE html><html><body style=\"font-family:Segoe UI,Arial,sans-serif;font-size:14px\">")
            .Append("<h2>").Append(MailFormat.Html(headline)).Append("</h2><p>").Append(MailFormat.Html(explanation)).Append("</p><ul>");
        foreach (var notice in notices.OrderBy(n => n.Kind).ThenBy(n => n.Instance.Registration.Name, StringComparer.OrdinalIgnoreCase))
        {
            var line = AlertMailComposer.Headline(notice, now);
            var link = MailFormat.InstanceLink(options.DashboardUrl, notice.Instance.Registration.Id);
            text.Append("- ").Append(line);
            if (link is not null) text.Append(" - ").Append(link);
            text.AppendLine();
            html.Append("<li>").Append(link is null ? MailFormat.Html(line) : $"<a href=\"{MailFormat.Html(link)}\">{MailFormat.Html(line)}</a>").Append("</li>");
        }
        html.Append("</ul></body></html>");
        return new AlertMailContent("[IFI] " + headline, text.ToString(), html.ToString());
    }

    static string Word(AlertNoticeKind kind) => kind switch
    {
        AlertNoticeKind.Opened => "opened",
        AlertNoticeKind.Reminder => "still open",
        AlertNoticeKind.Resolved => "resolved",
        AlertNoticeKind.Baseline => "found at registration",
        _ => kind.ToString().ToLowerInvariant(),
    };
}

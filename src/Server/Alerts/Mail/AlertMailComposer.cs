using System.Text;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Server.Alerts.Mail;

/// <summary>
/// The message for one instance's alert: what it is, the status and why, since when, the time lost so far, what to
/// do, and a link to the instance page, in plain text and in HTML.
/// </summary>
public static class AlertMailComposer
{
    public static AlertMailContent Compose(AlertNotice notice, AlertOptions options, DateTimeOffset now) =>
        Render(notice.Instance, Headline(notice, now), Facts(notice), withSteps: notice.Kind != AlertNoticeKind.Resolved, options);

    /// <summary>
    /// One instance's message laid out: the headline, the facts, what to do (the remediation steps) when
    /// <paramref name="withSteps"/>, and the links to the instance page and, with steps, to acknowledge or snooze.
    /// </summary>
    internal static AlertMailContent Render(InstanceAssessment instance, string headline, IReadOnlyList<(string Label, string Value)> facts,
        bool withSteps, AlertOptions options)
    {
        var name = instance.Registration.Name;
        var plan = instance.Remediation;
        var steps = withSteps ? plan.Steps : [];
        var link = MailFormat.InstanceLink(options.DashboardUrl, instance.Registration.Id);
        var silenceLink = withSteps ? MailFormat.SilenceLink(options.DashboardUrl, instance.Registration.Id) : null;

        var text = new StringBuilder();
        text.AppendLine(headline).AppendLine();
        foreach (var (label, value) in facts) text.Append(label).Append(": ").AppendLine(value);
        if (steps.Count > 0)
        {
            text.AppendLine().Append("What to do: ").AppendLine(plan.Title);
            for (var i = 0; i < steps.Count; i++) text.Append("  ").Append(i + 1).Append(". ").AppendLine(steps[i]);
        }
        text.AppendLine().AppendLine(link is null ? "Instance page: set Alerts:DashboardUrl to get a link here." : $"Instance page: {link}");
        if (silenceLink is not null) text.AppendLine($"Acknowledge or snooze: {silenceLink}");

        var html = new StringBuilder();
        html.Append("<!DOCTYPE html><html><body style=\"font-family:Segoe UI,Arial,sans-serif;font-size:14px\">");
        html.Append("<h2 style=\"margin:0 0 12px\">").Append(MailFormat.Html(headline)).Append("</h2>");
        html.Append("<table style=\"border-collapse:collapse\">");
        foreach (var (label, value) in facts)
            html.Append("<tr><th style=\"text-align:left;padding:2px 12px 2px 0;vertical-align:top\">").Append(MailFormat.Html(label))
                .Append("</th><td style=\"padding:2px 0\">").Append(MailFormat.Html(value)).Append("</td></tr>");
        html.Append("</table>");
        if (steps.Count > 0)
        {
            html.Append("<h3 style=\"margin:16px 0 4px\">What to do: ").Append(MailFormat.Html(plan.Title)).Append("</h3><ol>");
            foreach (var step in steps) html.Append("<li>").Append(MailFormat.Html(step)).Append("</li>");
            html.Append("</ol>");
        }
        if (link is not null)
            html.Append("<p><a href=\"").Append(MailFormat.Html(link)).Append("\">Open ").Append(MailFormat.Html(name)).Append(" in IfiDashboard</a></p>");
        if (silenceLink is not null)
            html.Append("<p><a href=\"").Append(MailFormat.Html(silenceLink)).Append("\">Acknowledge or snooze this alert</a></p>");
        html.Append("</body></html>");

        return new AlertMailContent("[IFI] " + headline, text.ToString(), html.ToString());
    }

    /// <summary>
    /// The subject a person on call reads first: what is wrong in words, on which instance, in which environment
    /// ("IFI off on SQL01 (Production)"), never an enum name. A problem that ends because a waiver now accepts it says
    /// "Waived", not "Resolved": nothing was fixed.
    /// </summary>
    internal static string Headline(AlertNotice notice, DateTimeOffset now)
    {
        var instance = notice.Instance;
        var compliance = instance.Compliance;
        var where = $"{instance.Registration.Name} ({instance.Registration.Environment})";
        var problem = notice.Rule switch
        {
            AlertRule.Unknown => $"IFI state unknown on {where} for {MailFormat.Duration(now - notice.Episode.OpenedAt)}",
            AlertRule.WaiverExpiring => $"IFI waiver for {where} ends {MailFormat.Moment(compliance.Waiver!.ExpiresAt)}",
            _ => $"{IfiProblem(compliance.Observed)} on {where}",
        };
        return notice.Kind switch
        {
            AlertNoticeKind.Resolved => compliance.Status switch
            {
                ComplianceStatus.Waived when compliance.Waiver is { } waiver =>
                    $"Waived: {IfiProblem(compliance.Observed)} on {where} accepted until {MailFormat.Moment(waiver.ExpiresAt)}",
                ComplianceStatus.NotApplicable => $"No longer applies: {where} is out of the policy's scope",
                _ => $"Resolved: {where} is compliant again",
            },
            AlertNoticeKind.Reminder => "Still: " + problem,
            _ => problem,
        };
    }

    /// <summary>A NonCompliant instance either lacks IFI that policy requires, or has IFI that policy forbids.</summary>
    static string IfiProblem(IfiState observed) => observed == IfiState.Enabled ? "IFI on against policy" : "IFI off";

    /// <summary>
    /// The privilege is read at service start, so a known IFI state has held since the engine's start: that dates a
    /// deviation better than the moment IfiDashboard first saw it (which may be its first poll of the instance).
    /// </summary>
    static string Since(AlertNotice notice)
    {
        var firstSeen = $"{MailFormat.Moment(notice.Episode.OpenedAt)} (first seen by IfiDashboard)";
        var facts = notice.Instance.Facts;
        if (notice.Rule != AlertRule.NonCompliant || facts.Ifi.State == IfiState.Unknown || facts.IfiOffByTraceFlag
            || facts.ServiceStartedAt is not { } started || started > notice.Episode.OpenedAt)
            return firstSeen;
        var state = facts.Ifi.State == IfiState.Enabled ? "on" : "off";
        return $"{MailFormat.Moment(started)}, the service start: IFI is set when the engine starts, so it has been {state} " +
               $"since; {firstSeen}";
    }

    /// <summary>Which instance (environment, owner, tags), its status and the engine's explanation: every message's first facts.</summary>
    internal static List<(string Label, string Value)> InstanceFacts(InstanceAssessment instance)
    {
        var registration = instance.Registration;
        var compliance = instance.Compliance;
        var where = new List<string> { registration.Environment };
        if (!string.IsNullOrEmpty(registration.Owner)) where.Add("owner " + registration.Owner);
        if (registration.Tags.Count > 0) where.Add("tags " + string.Join(", ", registration.Tags));
        return
        [
            ("Instance", $"{registration.Name} ({string.Join("; ", where)})"),
            ("Status", compliance.IsStale ? $"{compliance.Status} (stale: the last good poll is old)" : compliance.Status.ToString()),
            ("Why", compliance.Explanation),
        ];
    }

    /// <summary>The time lost over 30 days, with how far back the evidence reaches when that is less.</summary>
    internal static (string Label, string Value) TimeLostFact(InstanceAssessment instance) =>
        ("Time lost, last 30 days", $"{instance.TimeLost.Show30DaysWithEvidence(MailFormat.Duration)} of data-file zeroing IFI would have saved");

    static List<(string Label, string Value)> Facts(AlertNotice notice)
    {
        var instance = notice.Instance;
        var compliance = instance.Compliance;
        var facts = InstanceFacts(instance);
        facts.Add(notice.Kind == AlertNoticeKind.Resolved
            ? ("Problem", $"{notice.Rule} from {MailFormat.Moment(notice.Episode.OpenedAt)} (first seen) until this check")
            : ("Since", Since(notice)));
        if (compliance.Waiver is { } waiver)
            facts.Add(("Waiver", $"by {waiver.Author} until {MailFormat.Moment(waiver.ExpiresAt)}: {waiver.Reason}"));
        facts.Add(TimeLostFact(instance));
        if (instance.TimeLost.Evidence.Suggestion != GrowthTimingSuggestion.None)
            facts.Add(("Evidence", instance.TimeLost.Evidence.Describe()));
        if (instance.TimeLost.PolicyCostLast30Days > TimeSpan.Zero)
            facts.Add(("Cost of policy, last 30 days", $"{MailFormat.Duration(instance.TimeLost.PolicyCostLast30Days)} of data-file zeroing where policy forbids IFI"));
        foreach (var note in compliance.Notes) facts.Add(("Note", note));
        return facts;
    }
}

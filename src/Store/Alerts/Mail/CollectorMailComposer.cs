using System.Globalization;
using System.Text;
using IfiDashboard.Store.Collectors;

namespace IfiDashboard.Store.Alerts.Mail;

/// <summary>The administrators' mail about collectors: one fell silent or came back, one took over many instances from others.</summary>
public static class CollectorMailComposer
{
    const string Advice = "A collector takes an instance from another only once that one has been silent for "
        + "Ingestion:TakeoverDelay: a collector that stopped, or lost its way to the server. If this collector is not one of "
        + "yours, or should not poll these instances, revoke its key (api-key revoke, or Ingestion:ApiKeys) and look at the "
        + "audit log (action collector.took-over).";

    public static AlertMailContent Silent(string collector, DateTimeOffset lastSeen, DateTimeOffset now)
    {
        var subject = $"[IFI] Collector {collector} has fallen silent";
        var line = $"The collector {collector} has neither asked for a lease nor delivered a snapshot since {MailFormat.Moment(lastSeen)} "
            + $"(checked at {MailFormat.Moment(now)}). Its instances pass to another collector after Ingestion:TakeoverDelay; "
            + "if it was not stopped on purpose, look at its host, its log and its way to the server. The collectors page lists them all.";
        return new AlertMailContent(subject, line + "\n", $"<!DOCTYPE html><html><body><p>{MailFormat.Html(line)}</p></body></html>");
    }

    public static AlertMailContent Back(string collector, DateTimeOffset silentSince, DateTimeOffset now)
    {
        var subject = $"[IFI] Collector {collector} is back";
        var line = $"The collector {collector}, silent since {MailFormat.Moment(silentSince)}, was heard from again at {MailFormat.Moment(now)}. "
            + "Instances another collector took over meanwhile stay with that one while it is heard from; its own outbox delivers "
            + "what it polled while it could not reach the server.";
        return new AlertMailContent(subject, line + "\n", $"<!DOCTYPE html><html><body><p>{MailFormat.Html(line)}</p></body></html>");
    }

    public static AlertMailContent Takeovers(string collector, long inLastHour, IReadOnlyList<Takeover> taken, DateTimeOffset now)
    {
        var subject = $"[IFI] Collector {collector} took over {inLastHour.ToString(CultureInfo.InvariantCulture)} instances in the last hour";
        var lines = taken.Select(t => $"{t.InstanceName} (id {t.InstanceId.ToString(CultureInfo.InvariantCulture)}) from {t.TakenFrom}").ToList();
        var intro = $"At {MailFormat.Moment(now)} the collector {collector} took these instances from the collector that polled them before:";
        var text = new StringBuilder().AppendLine(intro);
        foreach (var line in lines) text.AppendLine("- " + line);
        text.AppendLine().AppendLine(Advice);
        var html = new StringBuilder($"<!DOCTYPE html><html><body><p>{MailFormat.Html(intro)}</p><ul>");
        foreach (var line in lines) html.Append($"<li>{MailFormat.Html(line)}</li>");
        html.Append($"</ul><p>{MailFormat.Html(Advice)}</p></body></html>");
        return new AlertMailContent(subject, text.ToString(), html.ToString());
    }
}

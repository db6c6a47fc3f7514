using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;

namespace IfiDashboard.Server.Alerts;

/// <summary>
/// Turns one evaluation's alerts into outbox messages: one mail per alert, unless a recipient list is in a storm
/// (more than <c>Alerts:Storm:Threshold</c> alert mails within the window, counting those already written), in which
/// case its alerts of this evaluation become one grouped mail. The problems newly registered instances were found with
/// (<see cref="AlertNoticeKind.Baseline"/>) go to each list as one baseline mail, storm or not. A silenced alert is one
/// message of its own, recorded and never sent, and counts toward nothing. Pure: the recent counts come from the store.
/// </summary>
public static class StormGrouping
{
    public static IReadOnlyList<OutboxMessage> Messages(IReadOnlyList<AlertNotice> notices, RecentAlertMail recent,
        AlertOptions options, DateTimeOffset now)
    {
        var messages = notices.Where(n => n.SilencedBy is not null)
            .Select(n => new OutboxMessage(n.DedupeKey, n.Kind, n.Instance.Registration.Id, n.Instance.Registration.Name, n.Rule,
                AlertRouter.RecipientsFor(n.Instance.Registration, options), AlertMailComposer.Compose(n, options, now), n.SilencedBy!.Id))
            .ToList();
        foreach (var group in notices.Where(n => n.SilencedBy is null).GroupBy(n => OutboxWriter.RecipientsText(AlertRouter.RecipientsFor(n.Instance.Registration, options))))
        {
            var recipients = AlertRouter.RecipientsFor(group.First().Instance.Registration, options);
            if (group.Where(n => n.Kind == AlertNoticeKind.Baseline).ToList() is { Count: > 0 } baseline)
                messages.Add(new OutboxMessage(GroupedKey(AlertNoticeKind.Baseline, baseline), AlertNoticeKind.Baseline, null, null, null,
                    recipients, GroupedComposer.ComposeBaseline(baseline, options, now)));
            var list = group.Where(n => n.Kind != AlertNoticeKind.Baseline).ToList();
            if (list.Count == 0)
                continue;
            var inStorm = recent.GroupedTo(group.Key) || recent.SentTo(group.Key) + list.Count > options.Storm.Threshold;
            if (!inStorm)
            {
                messages.AddRange(list.Select(n => new OutboxMessage(n.DedupeKey, n.Kind, n.Instance.Registration.Id,
                    n.Instance.Registration.Name, n.Rule, recipients, AlertMailComposer.Compose(n, options, now))));
                continue;
            }
            messages.Add(new OutboxMessage(GroupedKey(AlertNoticeKind.Grouped, list), AlertNoticeKind.Grouped, null, null, null, recipients,
                GroupedComposer.Compose(list, options, now)));
        }
        return messages;
    }

    /// <summary>The same alerts grouped twice (two evaluations of one assessment) make one row.</summary>
    static string GroupedKey(AlertNoticeKind kind, IEnumerable<AlertNotice> notices)
    {
        var keys = string.Join('\n', notices.Select(n => n.DedupeKey).Order(StringComparer.Ordinal));
        return $"{kind}:" + Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(keys)))[..32];
    }
}

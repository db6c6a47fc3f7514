using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Compliance.Alerts;

namespace IfiDashboard.Server.Alerts.Rules;

/// <summary>
/// The alert rules as a pure function: an assessment and the stored episodes in, the changes out. Transition-based:
/// a message goes out when an instance enters a problem, again after the re-notify interval, and once when the
/// problem ends. Evaluating the same assessment twice decides nothing the second time. The problems an instance's
/// first assessment after a poll finds are its baseline (<see cref="AlertNoticeKind.Baseline"/>), not news. An
/// instance a silence covers gets its notices all the same, marked with the silence (recorded, not sent), so its
/// episodes advance on the usual schedule and alerting resumes on it when the silence ends; an acknowledgement ends
/// once its instance has no open episode left.
/// </summary>
public static class AlertEvaluator
{
    /// <param name="baselined">Instances whose baseline an earlier evaluation took.</param>
    /// <param name="silences">The silences in force at the assessment's time.</param>
    public static AlertPlan Evaluate(FleetAssessment fleet, IReadOnlyCollection<AlertState> states,
        IReadOnlySet<long> baselined, IReadOnlyList<AlertSilence> silences, AlertOptions options)
    {
        var now = fleet.ComputedAt;
        var stored = states.ToDictionary(s => (s.InstanceId, s.Rule));
        var upserts = new List<AlertState>();
        var deletes = new List<(long, AlertRule)>();
        var notices = new List<AlertNotice>();
        var assessed = new HashSet<long>();
        var newBaselines = new List<long>();
        var stillOpen = new HashSet<long>();

        foreach (var instance in fleet.Instances)
        {
            var id = instance.Registration.Id;
            assessed.Add(id);
            // Before its first poll an instance has nothing to report; its first assessment after one is the baseline.
            var isBaseline = !baselined.Contains(id) && instance.State.LastPollAt is not null;
            if (isBaseline) newBaselines.Add(id);
            var ended = new List<AlertState>();
            var silence = SilenceFor(instance, silences, now);
            foreach (var rule in Enum.GetValues<AlertRule>())
            {
                stored.TryGetValue((id, rule), out var existing);
                // An assessment older than the one that last opened or notified this episode (another server's, on a
                // shared store, evaluated after it) knows less than the decision it would undo: it leaves the episode
                // as it is. It had ended such an episode with a Resolved mail, and the next assessment opened it again.
                if (existing is not null && (now < existing.OpenedAt || existing.NotifiedAt is { } notified && now < notified))
                {
                    stillOpen.Add(id);
                    continue;
                }
                if (!IsEnabled(rule, options.Rules))
                {
                    if (existing is not null) deletes.Add((id, rule));
                    continue;
                }
                var condition = AlertCondition.Check(rule, instance, now, options.Rules);
                if (condition.Kind == AlertConditionKind.Holds || condition.Kind == AlertConditionKind.Unseen && existing is not null)
                    stillOpen.Add(id);
                if (condition.Kind == AlertConditionKind.Holds)
                {
                    var episode = existing is not null && existing.Subject == condition.Subject
                        ? existing
                        : new AlertState(id, rule, condition.Subject, now, null, 0);
                    if (Due(rule, episode, now, options) is { } kind)
                    {
                        notices.Add(new AlertNotice(isBaseline && kind == AlertNoticeKind.Opened ? AlertNoticeKind.Baseline : kind,
                            rule, instance, episode, silence));
                        episode = episode with { NotifiedAt = now, NotifyCount = episode.NotifyCount + 1 };
                    }
                    if (episode != existing) upserts.Add(episode);
                }
                else if (condition.Kind == AlertConditionKind.Ends && existing is not null)
                {
                    deletes.Add((id, rule));
                    // A waiver warning has nothing to recover from; an episode nobody heard of ends quietly.
                    if (existing.NotifiedAt is not null && rule != AlertRule.WaiverExpiring) ended.Add(existing);
                }
            }
            // One recovery mail per instance, and only when it is really out of trouble (not NonCompliant → Unknown).
            if (ended.Count > 0 && options.Rules.Recovery && instance.Compliance.Status is not (ComplianceStatus.NonCompliant or ComplianceStatus.Unknown))
            {
                var first = ended.MinBy(e => e.OpenedAt)!;
                notices.Add(new AlertNotice(AlertNoticeKind.Resolved, first.Rule, instance, first, silence));
            }
        }

        // Retired instances: their episodes end without a word.
        deletes.AddRange(states.Where(s => !assessed.Contains(s.InstanceId)).Select(s => (s.InstanceId, s.Rule)));
        var acknowledgementsEnded = silences
            .Where(s => s.Kind == SilenceKind.Acknowledgement && s.IsActiveAt(now) && s.InstanceId is { } i && !stillOpen.Contains(i))
            .ToList();
        return new AlertPlan(upserts, deletes, notices, newBaselines, acknowledgementsEnded);
    }

    /// <summary>
    /// The silence that holds back an instance's messages now, if any: the instance's own acknowledgement or snooze
    /// first, as it names the person who is on it; then the one that lasts longest.
    /// </summary>
    public static AlertSilence? SilenceFor(InstanceAssessment instance, IReadOnlyList<AlertSilence> silences, DateTimeOffset now) =>
        silences.Where(s => s.IsActiveAt(now) && s.Covers(instance.Registration))
            .OrderBy(s => s.InstanceId is null).ThenByDescending(s => s.ExpiresAt).FirstOrDefault();

    static AlertNoticeKind? Due(AlertRule rule, AlertState episode, DateTimeOffset now, AlertOptions options)
    {
        if (episode.NotifiedAt is not { } notified)
            return rule != AlertRule.Unknown || now - episode.OpenedAt >= options.Rules.UnknownAfter ? AlertNoticeKind.Opened : null;
        // A waiver warning is a heads-up, said once per waiver; expiry itself brings the NonCompliant alert.
        if (rule == AlertRule.WaiverExpiring || options.RenotifyInterval <= TimeSpan.Zero) return null;
        return now - notified >= options.RenotifyInterval ? AlertNoticeKind.Reminder : null;
    }

    static bool IsEnabled(AlertRule rule, AlertRuleOptions rules) => rule switch
    {
        AlertRule.NonCompliant => rules.NonCompliant,
        AlertRule.Unknown => rules.Unknown,
        AlertRule.WaiverExpiring => rules.WaiverExpiring,
        _ => false,
    };
}

using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Store.Alerts;

namespace IfiDashboard.Server.Alerts;

/// <summary>The day's digests: one per recipient list that has at least one instance out of compliance.</summary>
public static class DigestPlanner
{
    public static IReadOnlyList<OutboxMessage> Plan(FleetAssessment fleet, AlertOptions options, DateOnly day) =>
        fleet.Instances
            .Where(DigestComposer.IsOpenProblem)
            .GroupBy(i => AlertRouter.RecipientsFor(i.Registration, options), RecipientsComparer.Instance)
            .Select(group => new OutboxMessage(
                DedupeKeyPrefix(day) + string.Join(",", group.Key.Select(a => a.ToLowerInvariant()).Order(StringComparer.Ordinal)),
                AlertNoticeKind.Digest, null, null, null, group.Key,
                DigestComposer.Compose(day, group.ToList(), options)))
            .ToList();

    /// <summary>Every digest of a day has a key starting with this, so "already written today" is one lookup.</summary>
    public static string DedupeKeyPrefix(DateOnly day) => $"Digest:{day:yyyy-MM-dd}:";

    sealed class RecipientsComparer : IEqualityComparer<IReadOnlyList<string>>
    {
        public static readonly RecipientsComparer Instance = new();

        public bool Equals(IReadOnlyList<string>? x, IReadOnlyList<string>? y) =>
            x is not null && y is not null && x.Order(StringComparer.OrdinalIgnoreCase).SequenceEqual(y.Order(StringComparer.OrdinalIgnoreCase), StringComparer.OrdinalIgnoreCase);

        public int GetHashCode(IReadOnlyList<string> value) =>
            value.Aggregate(0, (hash, address) => hash ^ StringComparer.OrdinalIgnoreCase.GetHashCode(address));
    }
}

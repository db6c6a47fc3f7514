using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Timeline;

/// <summary>
/// Turns an instance's polls into the changes between them. A poll that could not read a value (unreachable,
/// permission missing) neither starts nor ends a change: otherwise every outage would show as "IFI lost" then
/// "IFI regained".
/// </summary>
public static class TimelineBuilder
{
    public static IReadOnlyList<TimelineChange> Build(long instanceId, IEnumerable<PollObservation> polls)
    {
        var changes = new List<TimelineChange>();
        IfiState? lastIfi = null;
        string? lastAccount = null;
        DateTimeOffset? lastStart = null;
        string? lastRoles = null;
        string? lastOwner = null;

        foreach (var poll in polls.OrderBy(p => p.PolledAt))
        {
            DateTimeOffset? restartedAt = null;
            if (poll.ServiceStartedAt is { } started)
            {
                if (lastStart is { } previousStart && started != previousStart)
                {
                    restartedAt = started;
                    changes.Add(Change(instanceId, poll, TimelineChangeKind.ServiceStart,
                        ComplianceFormat.Moment(previousStart), ComplianceFormat.Moment(started), null));
                }
                lastStart = started;
            }

            if (poll.ServiceAccount is { } account)
            {
                if (lastAccount is not null && !string.Equals(lastAccount, account, StringComparison.OrdinalIgnoreCase))
                    changes.Add(Change(instanceId, poll, TimelineChangeKind.ServiceAccount, lastAccount, account,
                        restartedAt));
                lastAccount = account;
            }

            if (poll.AvailabilityRoles is { } roles)
            {
                var before = AvailabilityGroupInfo.ParseRoles(lastRoles);
                foreach (var (group, role) in AvailabilityGroupInfo.ParseRoles(roles))
                    if (before.TryGetValue(group, out var old) && !string.Equals(old, role, StringComparison.OrdinalIgnoreCase))
                        changes.Add(Change(instanceId, poll, TimelineChangeKind.AvailabilityFailover, $"{group}={old}", $"{group}={role}", null));
                lastRoles = roles;
            }

            if (poll.ClusterOwner is { } owner)
            {
                if (lastOwner is not null && !string.Equals(lastOwner, owner, StringComparison.OrdinalIgnoreCase))
                    changes.Add(Change(instanceId, poll, TimelineChangeKind.ClusterOwnerMove, lastOwner, owner, null));
                lastOwner = owner;
            }

            if (poll.Ifi != IfiState.Unknown)
            {
                if (lastIfi is { } previous && previous != poll.Ifi)
                    changes.Add(Change(instanceId, poll, TimelineChangeKind.IfiFlag, Flag(previous), Flag(poll.Ifi),
                        restartedAt));
                lastIfi = poll.Ifi;
            }
        }
        return changes;
    }

    /// <summary>
    /// When the IFI state the polls last read began: the restart that brought it, or the poll that first saw it. When
    /// it never changed, the engine start the first poll that read it reported (the engine reads the privilege when it
    /// starts, so the state held from then), or that poll itself if it read no start time (the store keeps that
    /// poll). Null when no poll read IFI.
    /// </summary>
    public static DateTimeOffset? IfiSince(long instanceId, IReadOnlyCollection<PollObservation> polls) =>
        Build(instanceId, polls).Where(c => c.Kind == TimelineChangeKind.IfiFlag).MaxBy(c => c.SeenAt) is { } change
            ? change.AfterRestartAt ?? change.SeenAt
            : polls.Where(p => p.Ifi != IfiState.Unknown).MinBy(p => p.PolledAt) is { } first
                ? first.ServiceStartedAt is { } started && started <= first.PolledAt ? started : first.PolledAt
                : null;

    /// <summary>The values a DMV user knows: the column's own 'Y' and 'N'.</summary>
    public static string Flag(IfiState state) => state switch
    {
        IfiState.Enabled => "Y",
        IfiState.Disabled => "N",
        _ => "?",
    };

    static TimelineChange Change(long instanceId, PollObservation poll, TimelineChangeKind kind, string before,
        string after, DateTimeOffset? restartedAt) => new()
    {
        InstanceId = instanceId,
        Kind = kind,
        Before = before,
        After = after,
        SeenAt = poll.PolledAt,
        SeenBySnapshotId = poll.SnapshotId,
        AfterRestartAt = restartedAt,
    };
}

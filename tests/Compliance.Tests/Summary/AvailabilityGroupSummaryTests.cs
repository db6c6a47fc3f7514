using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests.Summary;

/// <summary>Issue 29 item 1: the fleet's replicas grouped by availability group, and failovers on the timeline.</summary>
public sealed class AvailabilityGroupSummaryTests
{
    static readonly Guid Payments = Guid.Parse("8f1c2e57-2d0c-4c43-9b5e-1f0a3c1d2e01");

    static AvailabilityReplicaInstance Replica(long id, string name, IfiState ifi, string role, string host = "") =>
        new(Instance(ifi, id: id, name: name) with
        {
            Registration = Instance(ifi, id: id, name: name).Registration with { Host = host.Length == 0 ? name : host },
            AvailabilityGroups =
            [
                new AvailabilityGroupInfo
                {
                    GroupId = Payments, Name = "payments", LocalRole = role, PrimaryReplica = "PAY-A",
                    Replicas = ["PAY-A", "PAY-B", "PAY-C"], Listeners = ["payments-lsn"],
                },
            ],
        }, ifi == IfiState.Enabled ? ComplianceStatus.Compliant : ComplianceStatus.NonCompliant);

    [Fact]
    public void Replicas_of_one_group_are_counted_together_with_the_primarys_state_named()
    {
        var groups = AvailabilityGroupSummary.Of(
        [
            Replica(1, "PAY-A", IfiState.Enabled, "PRIMARY"),
            Replica(2, "PAY-B", IfiState.Disabled, "SECONDARY"),
            Replica(3, "PAY-C", IfiState.Disabled, "SECONDARY"),
            new(Instance(id: 4, name: "SOLO"), ComplianceStatus.Compliant),
        ]);

        var group = Assert.Single(groups);
        Assert.Equal("AG payments: 2 of 3 replicas without IFI; the primary has it.", group.Sentence);
        Assert.True(group.IsMixed);
        Assert.Equal([1L, 2L, 3L], group.Replicas.Select(r => r.Instance!.Id));
    }

    [Fact]
    public void A_replica_nobody_registered_is_named_as_not_monitored()
    {
        var group = Assert.Single(AvailabilityGroupSummary.Of(
        [
            Replica(1, "PAY-A", IfiState.Enabled, "PRIMARY"),
            Replica(2, "PAY-B", IfiState.Enabled, "SECONDARY"),
        ]));

        Assert.Equal("AG payments: 2 of 3 replicas with IFI; 1 not monitored (PAY-C).", group.Sentence);
        Assert.Null(group.Replicas.Single(r => r.ServerName == "PAY-C").Instance);
        Assert.Equal("SECONDARY", group.Replicas.Single(r => r.ServerName == "PAY-C").Role);
    }

    [Fact]
    public void Every_replica_with_ifi_is_said_so_and_is_not_mixed()
    {
        var group = Assert.Single(AvailabilityGroupSummary.Of(
        [
            Replica(1, "PAY-A", IfiState.Enabled, "PRIMARY"),
            Replica(2, "PAY-B", IfiState.Enabled, "SECONDARY"),
            Replica(3, "PAY-C", IfiState.Enabled, "SECONDARY"),
        ]));

        Assert.Equal("AG payments: every replica has IFI.", group.Sentence);
        Assert.False(group.IsMixed);
    }

    [Theory]
    [InlineData("payments-lsn.corp.example", true)]
    [InlineData("PAYMENTS-LSN", true)]
    [InlineData("pay-a.corp.example", false)]
    public void A_registration_through_the_listener_is_recognised(string host, bool expected)
    {
        var replica = Replica(1, "PAY-A", IfiState.Enabled, "PRIMARY", host);

        Assert.Equal(expected, AvailabilityGroupSummary.ReachedThroughListener(replica.Facts) is not null);
    }

    [Fact]
    public void A_role_change_between_polls_is_a_failover_and_an_owner_change_a_move()
    {
        var polls = new[]
        {
            Poll(Now.AddHours(-2), IfiState.Enabled, Now.AddDays(-1)) with { AvailabilityRoles = "orders=SECONDARY;payments=PRIMARY", ClusterOwner = "NODE1" },
            Poll(Now.AddHours(-1), IfiState.Unknown, null, account: null),
            Poll(Now, IfiState.Enabled, Now.AddDays(-1)) with { AvailabilityRoles = "orders=SECONDARY;payments=SECONDARY", ClusterOwner = "NODE2" },
        };

        var changes = TimelineBuilder.Build(1, polls);

        Assert.Equal([TimelineChangeKind.AvailabilityFailover, TimelineChangeKind.ClusterOwnerMove], changes.Select(c => c.Kind));
        Assert.StartsWith("Availability group payments failed over: this replica went from PRIMARY to SECONDARY", TimelineText.Describe(changes[0]), StringComparison.Ordinal);
        Assert.StartsWith("Failover cluster instance moved from node NODE1 to NODE2", TimelineText.Describe(changes[1]), StringComparison.Ordinal);
    }
}

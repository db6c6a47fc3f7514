using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>
/// Issue 29 item 1: availability groups read through SqlClient from a three-replica group in the simulator, whose
/// replicas are separate instances answering from the same group facts.
/// </summary>
public sealed class AvailabilityGroupProbeTests
{
    static FleetSimulator StartPayments(string profile = "2019", ScenarioLogin? login = null, bool contained = false)
    {
        ScenarioInstance Replica(string name, bool ifi) => new()
        {
            Name = name, Profile = profile, IfiEnabled = ifi, Logins = login is null ? [] : [login],
        };
        return FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [Fleets.LoginWith("VIEW SERVER STATE", "VIEW SERVER PERFORMANCE STATE", "VIEW ANY DEFINITION", "ALTER TRACE")],
            Instances = [Replica("pay-a", true), Replica("pay-b", false), Replica("pay-c", false), new() { Name = "solo", Profile = profile }],
            AvailabilityGroups =
            [
                new ScenarioAvailabilityGroup { Name = "payments", Replicas = ["pay-a", "pay-b", "pay-c"], Listener = "payments-lsn", Contained = contained },
            ],
        }, _ => { });
    }

    static Task<InstanceSnapshot> PollAsync(FleetSimulator fleet, string name) =>
        ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet[name]), CancellationToken.None);

    [Fact]
    public async Task The_primary_knows_its_group_role_partners_and_listener()
    {
        await using var fleet = StartPayments();

        var snapshot = await PollAsync(fleet, "pay-a");

        var group = Assert.Single(snapshot.AvailabilityGroups!);
        Assert.Equal(("payments", AvailabilityRoles.Primary, "PAY-A"), (group.Name, group.LocalRole, group.PrimaryReplica));
        Assert.Equal(["PAY-A", "PAY-B", "PAY-C"], group.Replicas);
        Assert.Equal(["payments-lsn"], group.Listeners);
        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.AvailabilityGroups).Outcome);
    }

    [Fact]
    public async Task A_secondary_sees_only_its_own_state_but_names_the_primary()
    {
        await using var fleet = StartPayments();

        var snapshot = await PollAsync(fleet, "pay-b");

        var group = Assert.Single(snapshot.AvailabilityGroups!);
        Assert.Equal((AvailabilityRoles.Secondary, "PAY-A"), (group.LocalRole, group.PrimaryReplica));
        Assert.Equal(3, group.Replicas.Count);
        Assert.Equal(snapshot.AvailabilityGroups![0].GroupId, (await PollAsync(fleet, "pay-c")).AvailabilityGroups![0].GroupId);
    }

    [Fact]
    public async Task A_failover_swaps_the_roles_every_replica_reports()
    {
        await using var fleet = StartPayments();
        Assert.True((await PollAsync(fleet, "pay-a")).AvailabilityGroups![0].IsPrimary);

        fleet.Failover("payments", "pay-b");

        var oldPrimary = Assert.Single((await PollAsync(fleet, "pay-a")).AvailabilityGroups!);
        var newPrimary = Assert.Single((await PollAsync(fleet, "pay-b")).AvailabilityGroups!);
        Assert.Equal((AvailabilityRoles.Secondary, "PAY-B"), (oldPrimary.LocalRole, oldPrimary.PrimaryReplica));
        Assert.Equal(AvailabilityRoles.Primary, newPrimary.LocalRole);
    }

    [Fact]
    public async Task An_instance_without_always_on_reads_no_group_and_reports_nothing()
    {
        await using var fleet = StartPayments();

        var snapshot = await PollAsync(fleet, "solo");

        Assert.Empty(snapshot.AvailabilityGroups!);
        Assert.DoesNotContain(snapshot.Probes, p => p.Probe == ProbeNames.AvailabilityGroups);
    }

    // The catalog views hide the groups without VIEW ANY DEFINITION (no error); the DMVs refuse without the
    // server-state permission of the build. Either way the probe says what to grant instead of "no group".
    [Theory]
    [InlineData("2019", new[] { "VIEW SERVER STATE" }, "VIEW ANY DEFINITION")]
    [InlineData("2022", new[] { "VIEW SERVER STATE", "VIEW ANY DEFINITION" }, "VIEW SERVER PERFORMANCE STATE")]
    public async Task A_login_that_cannot_see_the_groups_is_told_what_to_grant(string profile, string[] permissions, string missing)
    {
        await using var fleet = StartPayments(profile, Fleets.LoginWith([.. permissions, "VIEW SERVER SECURITY STATE", "ALTER TRACE"]));

        var snapshot = await PollAsync(fleet, "pay-b");

        Assert.Null(snapshot.AvailabilityGroups);
        var probe = snapshot.Probes.Single(p => p.Probe == ProbeNames.AvailabilityGroups);
        Assert.Equal(OutcomeClass.PermissionMissing, probe.Outcome);
        Assert.Contains(missing, probe.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("2022", true)]
    [InlineData("2019", false)]
    public async Task A_contained_group_is_recognised_from_2022(string profile, bool expected)
    {
        await using var fleet = StartPayments(profile, contained: profile == "2022");

        var snapshot = await PollAsync(fleet, "pay-a");

        Assert.Equal(expected, Assert.Single(snapshot.AvailabilityGroups!).IsContained);
    }
}

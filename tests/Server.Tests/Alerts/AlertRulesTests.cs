using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Alerts;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Shared.Alerts;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// The rules as a pure function, over a real instance assessment whose status the test sets: thresholds, episodes
/// that outlive an outage, waiver warnings, switches, idempotence.
/// </summary>
public sealed class AlertRulesTests : IAsyncLifetime
{
    static readonly DateTimeOffset T0 = new(2026, 3, 2, 8, 0, 0, TimeSpan.Zero);

    SmtpSink _smtp = null!;
    AlertsTestBed _bed = null!;
    FleetAssessment _template = null!;

    public async Task InitializeAsync()
    {
        _smtp = SmtpSink.Create(SinkMode.None);
        _bed = AlertsTestBed.Create(new ScenarioInstance { Name = "sql-rules", Profile = "2019", IfiEnabled = true });
        await using var host = _bed.StartHost(_smtp, s => s["Alerts:Enabled"] = "false");
        await host.RegisterFleetAsync();
        _template = await host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    public async Task DisposeAsync()
    {
        await _bed.DisposeAsync();
        await _smtp.DisposeAsync();
    }

    FleetAssessment Fleet(DateTimeOffset at, ComplianceStatus status, Waiver? waiver = null)
    {
        var instance = _template.Instances.Single();
        return _template with
        {
            ComputedAt = at,
            Instances = [instance with
            {
                State = instance.State with { LastPollAt = at },
                Compliance = instance.Compliance with { Status = status, Waiver = waiver },
            }],
        };
    }

    static AlertOptions Options(Action<AlertOptions>? change = null)
    {
        var options = new AlertOptions { Enabled = true, RenotifyInterval = TimeSpan.FromHours(4) };
        change?.Invoke(options);
        return options;
    }

    /// <summary>
    /// Evaluates and applies the plan to the states, as the store would; the instance's baseline was taken before
    /// (its first assessment), unless <paramref name="baselined"/> says otherwise.
    /// </summary>
    static IReadOnlyList<AlertNotice> Step(List<AlertState> states, FleetAssessment fleet, AlertOptions options,
        HashSet<long>? baselined = null, IReadOnlyList<AlertSilence>? silences = null)
    {
        baselined ??= [.. fleet.Instances.Select(i => i.Registration.Id)];
        var plan = AlertEvaluator.Evaluate(fleet, states, baselined, silences ?? [], options);
        baselined.UnionWith(plan.Baselined);
        states.RemoveAll(s => plan.Deletes.Contains((s.InstanceId, s.Rule)) || plan.Upserts.Any(u => u.InstanceId == s.InstanceId && u.Rule == s.Rule));
        states.AddRange(plan.Upserts);
        return plan.Notices;
    }

    [Fact]
    public void Unknown_alerts_only_once_it_has_lasted_the_threshold()
    {
        var states = new List<AlertState>();
        var options = Options();

        Assert.Empty(Step(states, Fleet(T0, ComplianceStatus.Unknown), options));
        Assert.Empty(Step(states, Fleet(T0.AddMinutes(59), ComplianceStatus.Unknown), options));
        var notice = Assert.Single(Step(states, Fleet(T0.AddHours(1), ComplianceStatus.Unknown), options));

        Assert.Equal((AlertNoticeKind.Opened, AlertRule.Unknown), (notice.Kind, notice.Rule));
        Assert.Equal(T0, notice.Episode.OpenedAt);
    }

    [Fact]
    public void An_unknown_spell_that_clears_before_the_threshold_ends_quietly()
    {
        var states = new List<AlertState>();

        Step(states, Fleet(T0, ComplianceStatus.Unknown), Options());

        Assert.Empty(Step(states, Fleet(T0.AddMinutes(10), ComplianceStatus.Compliant), Options()));
        Assert.Empty(states);
    }

    [Fact]
    public void A_non_compliant_instance_that_goes_out_of_sight_keeps_its_episode_and_is_not_called_resolved()
    {
        var states = new List<AlertState>();
        var options = Options(o => o.Rules.Unknown = false);

        Assert.Single(Step(states, Fleet(T0, ComplianceStatus.NonCompliant), options));
        Assert.Empty(Step(states, Fleet(T0.AddMinutes(5), ComplianceStatus.Unknown), options));
        Assert.Empty(Step(states, Fleet(T0.AddMinutes(10), ComplianceStatus.NonCompliant), options));
        var resolved = Assert.Single(Step(states, Fleet(T0.AddMinutes(15), ComplianceStatus.Compliant), options));

        Assert.Equal(AlertNoticeKind.Resolved, resolved.Kind);
    }

    [Fact]
    public void A_waiver_ending_soon_warns_once_and_a_renewed_waiver_warns_again()
    {
        var states = new List<AlertState>();
        var options = Options();
        Waiver Until(DateTimeOffset end) => new() { InstanceId = 1, Reason = "vendor", Author = "dba", GrantedAt = T0.AddDays(-30), ExpiresAt = end };

        Assert.Empty(Step(states, Fleet(T0, ComplianceStatus.Waived, Until(T0.AddDays(8))), options));
        var warning = Assert.Single(Step(states, Fleet(T0.AddDays(1), ComplianceStatus.Waived, Until(T0.AddDays(8))), options));
        Assert.Empty(Step(states, Fleet(T0.AddDays(5), ComplianceStatus.Waived, Until(T0.AddDays(8))), options));
        Assert.Empty(Step(states, Fleet(T0.AddDays(6), ComplianceStatus.Waived, Until(T0.AddDays(30))), options));
        var renewed = Assert.Single(Step(states, Fleet(T0.AddDays(23), ComplianceStatus.Waived, Until(T0.AddDays(30))), options));

        Assert.Equal((AlertNoticeKind.Opened, AlertRule.WaiverExpiring), (warning.Kind, warning.Rule));
        Assert.NotEqual(warning.DedupeKey, renewed.DedupeKey);
    }

    [Fact]
    public void Switched_off_rules_send_nothing_and_recovery_off_ends_quietly()
    {
        var states = new List<AlertState>();
        var noNonCompliant = Options(o => o.Rules.NonCompliant = false);
        var noRecovery = Options(o => o.Rules.Recovery = false);

        Assert.Empty(Step(states, Fleet(T0, ComplianceStatus.NonCompliant), noNonCompliant));
        Assert.Single(Step(states, Fleet(T0.AddMinutes(1), ComplianceStatus.NonCompliant), noRecovery));
        Assert.Empty(Step(states, Fleet(T0.AddMinutes(2), ComplianceStatus.Compliant), noRecovery));
        Assert.Empty(states);
    }

    [Fact]
    public void Evaluating_the_same_assessment_twice_decides_nothing_the_second_time()
    {
        var states = new List<AlertState>();
        var fleet = Fleet(T0, ComplianceStatus.NonCompliant);

        Assert.Single(Step(states, fleet, Options()));

        Assert.True(AlertEvaluator.Evaluate(fleet, states, fleet.Instances.Select(i => i.Registration.Id).ToHashSet(), [], Options()).IsEmpty);
    }

    [Fact]
    public void An_older_assessment_evaluated_after_a_newer_one_neither_resolves_nor_reopens_its_episode()
    {
        // Two servers on one store: one opened the episode from its assessment at T0 + 1 min; the other's assessment,
        // from before that poll landed, is evaluated after it and still sees the instance compliant.
        var states = new List<AlertState>();
        var opened = Step(states, Fleet(T0.AddMinutes(1), ComplianceStatus.NonCompliant), Options());
        var episode = Assert.Single(states);

        var stale = Step(states, Fleet(T0, ComplianceStatus.Compliant), Options());
        var later = Step(states, Fleet(T0.AddMinutes(2), ComplianceStatus.NonCompliant), Options());

        Assert.Equal(AlertNoticeKind.Opened, Assert.Single(opened).Kind);
        Assert.Empty(stale);
        Assert.Empty(later);
        Assert.Equal(episode, Assert.Single(states));
    }

    [Fact]
    public void Subjects_say_what_is_wrong_where_and_a_waiver_that_ends_a_problem_says_waived_not_resolved()
    {
        var states = new List<AlertState>();
        var options = Options();
        var waiver = new Waiver { InstanceId = 1, Reason = "vendor", Author = "dba", GrantedAt = T0, ExpiresAt = T0.AddDays(30) };
        string Subject(AlertNotice notice, DateTimeOffset at) => AlertMailComposer.Compose(notice, options, at).Subject;
        static FleetAssessment IfiOff(FleetAssessment fleet) => fleet with
        {
            Instances = [fleet.Instances[0] with { Compliance = fleet.Instances[0].Compliance with { Observed = IfiState.Disabled } }],
        };

        var opened = Assert.Single(Step(states, IfiOff(Fleet(T0, ComplianceStatus.NonCompliant)), options));
        var reminder = Assert.Single(Step(states, IfiOff(Fleet(T0.AddHours(4), ComplianceStatus.NonCompliant)), options));
        var waived = Assert.Single(Step(states, IfiOff(Fleet(T0.AddHours(5), ComplianceStatus.Waived, waiver)), options));

        Assert.Equal("[IFI] IFI off on sql-rules (Production)", Subject(opened, T0));
        Assert.Equal("[IFI] Still: IFI off on sql-rules (Production)", Subject(reminder, T0.AddHours(4)));
        Assert.Equal(AlertNoticeKind.Resolved, waived.Kind);
        Assert.StartsWith("[IFI] Waived: IFI off on sql-rules (Production) accepted until 2026-04-01", Subject(waived, T0.AddHours(5)), StringComparison.Ordinal);
    }

    [Fact]
    public void Problems_of_an_instances_first_assessment_are_its_baseline_and_later_ones_are_alerted_on_their_own()
    {
        var states = new List<AlertState>();
        var options = Options();
        var baselined = new HashSet<long>();
        FleetAssessment NotPolledYet(FleetAssessment fleet) => fleet with
        {
            Instances = [fleet.Instances[0] with { State = fleet.Instances[0].State with { LastPollAt = null } }],
        };

        var beforeAnyPoll = Step(states, NotPolledYet(Fleet(T0, ComplianceStatus.Compliant)), options, baselined);
        var first = Assert.Single(Step(states, Fleet(T0.AddMinutes(1), ComplianceStatus.NonCompliant), options, baselined));
        var again = Step(states, Fleet(T0.AddMinutes(2), ComplianceStatus.NonCompliant), options, baselined);
        var resolved = Assert.Single(Step(states, Fleet(T0.AddMinutes(3), ComplianceStatus.Compliant), options, baselined));
        var lost = Assert.Single(Step(states, Fleet(T0.AddMinutes(4), ComplianceStatus.NonCompliant), options, baselined));

        Assert.Empty(beforeAnyPoll);
        Assert.Equal((AlertNoticeKind.Baseline, AlertRule.NonCompliant), (first.Kind, first.Rule));
        Assert.Empty(again);
        Assert.Equal(AlertNoticeKind.Resolved, resolved.Kind);
        Assert.Equal((AlertNoticeKind.Opened, AlertRule.NonCompliant), (lost.Kind, lost.Rule));
    }

    static AlertSilence Silence(SilenceKind kind, DateTimeOffset until, long? instanceId = null, string? environment = null) => new()
    {
        Id = 7, Kind = kind, InstanceId = instanceId, Environment = environment, Reason = "maintenance", CreatedBy = "alice",
        CreatedAt = T0, ExpiresAt = until,
    };

    [Fact]
    public void A_silence_of_the_environment_marks_the_alert_silenced_and_the_episode_advances_as_if_it_was_sent()
    {
        var states = new List<AlertState>();
        var environment = _template.Instances.Single().Registration.Environment.ToUpperInvariant();
        var silence = Silence(SilenceKind.Silence, T0.AddHours(2), environment: environment);

        var silenced = Assert.Single(Step(states, Fleet(T0, ComplianceStatus.NonCompliant), Options(), silences: [silence]));
        var afterExpiry = Step(states, Fleet(T0.AddHours(3), ComplianceStatus.NonCompliant), Options(), silences: [silence]);
        var reminder = Assert.Single(Step(states, Fleet(T0.AddHours(4), ComplianceStatus.NonCompliant), Options(), silences: [silence]));

        Assert.Equal((AlertNoticeKind.Opened, 7L), (silenced.Kind, silenced.SilencedBy?.Id));
        Assert.Empty(afterExpiry);
        Assert.Equal((AlertNoticeKind.Reminder, (AlertSilence?)null), (reminder.Kind, reminder.SilencedBy));
    }

    [Fact]
    public void An_acknowledgement_ends_when_the_instance_has_no_open_episode_and_not_while_it_is_unseen()
    {
        var states = new List<AlertState>();
        var id = _template.Instances.Single().Registration.Id;
        var acknowledgement = Silence(SilenceKind.Acknowledgement, T0.AddDays(30), instanceId: id);
        Step(states, Fleet(T0, ComplianceStatus.NonCompliant), Options());
        var baselined = new HashSet<long> { id };

        var whileUnknown = AlertEvaluator.Evaluate(Fleet(T0.AddMinutes(5), ComplianceStatus.Unknown), states, baselined, [acknowledgement], Options());
        var whenFixed = AlertEvaluator.Evaluate(Fleet(T0.AddMinutes(10), ComplianceStatus.Compliant), states, baselined, [acknowledgement], Options());

        Assert.Empty(whileUnknown.AcknowledgementsEnded);
        Assert.Equal([acknowledgement], whenFixed.AcknowledgementsEnded);
        Assert.Equal(7L, Assert.Single(whenFixed.Notices).SilencedBy?.Id);
    }
}

using System.Diagnostics.Metrics;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Store.Policy;
using IfiDashboard.Store.Remediation;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Reads the store and assesses every active instance; growth events stream one instance at a time. A build after
/// the first is incremental (docs/decisions/0013-incremental-assessment.md): it reads the active instances, the policy
/// and what remediation is pending, and assesses again, from their own files, TDE, history and growth events, only the
/// instances whose row or stored polls changed or whose last assessment has run out (<see cref="InstanceAssessor.Assess"/>
/// says until when it holds); the others keep their assessment. The policy's rules changing, the clock going back, or
/// <see cref="RebuildAsync"/> assess every instance. One build runs at a time.
/// </summary>
public sealed class FleetAssessmentBuilder(
    FactsReader facts,
    PolicyStore policies,
    DailyComplianceStore daily,
    RemediationPacks remediation,
    ZeroingRateOptions rateOptions,
    TimeProvider time,
    IMeterFactory meters,
    ICredentialResolver? credentials = null)
{
    /// <summary>The server's meter, as exported (with the traces of <see cref="IngestionTelemetry"/>).</summary>
    public const string MeterName = IngestionTelemetry.Name;
    public const string BuildsInstrument = "ifidashboard.assessment.builds";
    public const string ReassessedInstrument = "ifidashboard.assessment.reassessed";
    public const string KindTag = "kind";
    public const string IncrementalKind = "incremental";
    public const string EveryInstanceKind = "every instance";

    /// <summary>
    /// Above this share of the fleet, reading the facts of every instance in one pass costs less than reading the
    /// instances' own rows in lists of ids.
    /// </summary>
    const int WholeFleetReadDivisor = 4;

    readonly SemaphoreSlim _building = new(1, 1);
    readonly Counter<long> _builds = meters.Create(MeterName).CreateCounter<long>(BuildsInstrument,
        description: "Fleet assessments built, by kind (every instance, incremental)");
    readonly Counter<long> _reassessed = meters.Create(MeterName).CreateCounter<long>(ReassessedInstrument,
        description: "Instances whose facts an assessment read and assessed again, by the assessment's kind");
    Previous? _previous;
    PastDays? _pastDays;

    /// <summary>Assesses the fleet, again only what changed since the previous build.</summary>
    public Task<FleetAssessment> BuildAsync(CancellationToken ct) => BuildAsync(everyInstance: false, ct);

    /// <summary>Assesses every instance from the store, as the first build does.</summary>
    public Task<FleetAssessment> RebuildAsync(CancellationToken ct) => BuildAsync(everyInstance: true, ct);

    async Task<FleetAssessment> BuildAsync(bool everyInstance, CancellationToken ct)
    {
        await _building.WaitAsync(ct);
        try
        {
            var (assessment, previous) = await AssessAsync(everyInstance, ct);
            _previous = previous;
            return assessment;
        }
        finally
        {
            _building.Release();
        }
    }

    async Task<(FleetAssessment, Previous)> AssessAsync(bool everyInstance, CancellationToken ct)
    {
        var now = time.GetUtcNow();
        var active = (await facts.ActiveInstancesAsync(ct)).ToDictionary(a => a.Registration.Id);
        // Finding duplicates compares every registration with the others (tens of milliseconds at 10,000): the same
        // registrations and server names give the same answer.
        var duplicates = !everyInstance && _previous is { } last && SameInventory(last.Active, active)
            ? last.Duplicates
            : InventoryFields.Duplicates(active.Values.Select(a => a.Registration), id => active[id].Facts.ServerName);
        var counted = active.Values.Where(a => !duplicates.ContainsKey(a.Registration.Id)).ToDictionary(a => a.Registration.Id);
        var policy = await policies.GetCurrentAsync(ct);
        var pending = await remediation.PendingAsync(ct);
        var waivers = policy.Waivers.ToLookup(w => w.InstanceId);
        // Resolved once per credential and build: thousands of instances share a handful of credentials.
        var logins = new Dictionary<string, string>(StringComparer.Ordinal);
        string LoginOf(InstanceRegistration registration) => registration.CredentialName is not { } name
            ? RemediationAdvisor.CollectorLoginPlaceholder
            : logins.TryGetValue(name, out var login) ? login : logins[name] = ResolveLogin(name);

        // The previous build's assessments hold only for the rules they were judged by, and only forward in time.
        var kept = everyInstance || _previous is not { } previous || previous.PolicyVersion != policy.Version || now < previous.At
            ? null
            : previous.Instances;
        var assessed = new Dictionary<long, Assessed>(counted.Count);
        var due = new List<long>();
        foreach (var (id, instance) in counted)
        {
            var basis = new AssessmentBasis(instance, LoginOf(instance.Registration), waivers[id]);
            if (kept is not null && kept.TryGetValue(id, out var before) && now < before.ValidUntil && before.Basis.Equals(basis))
            {
                assessed[id] = before;
                // The rows just read equal the kept assessment's: the next build compares with those, so an unchanged
                // instance's registration, state and fact row are held once, not once more per build.
                active[id] = before.Basis.Row;
            }
            else
                due.Add(id);
        }

        // A few instances' facts are read by their ids; many, in one pass over the fleet's.
        var readIds = kept is null || due.Count > counted.Count / WholeFleetReadDivisor ? null : due;
        var dueSet = due.ToHashSet();
        var reassessing = due.Count > 0;
        // Each instance's rows are let go once it is assessed: a build of the whole fleet (after the first polls,
        // 9 in 10 instances changed) would otherwise hold all 100,000 file rows and the poll history of 10,000
        // instances until its last growth event, beside the assessment in use and the one being built.
        var files = reassessing ? await ByInstanceAsync(() => facts.FilesAsync(readIds, ct)) : null;
        var encryption = reassessing ? await ByInstanceAsync(() => facts.EncryptionAsync(readIds, ct)) : null;
        var observations = reassessing ? await ByInstanceAsync(() => facts.ObservationsAsync(readIds, ct)) : null;
        var availabilityGroups = reassessing ? await ByInstanceAsync(() => facts.AvailabilityGroupsAsync(readIds, ct)) : null;
        void Assess(long id, List<GrowthEventFacts> events)
        {
            if (!dueSet.Remove(id)) return;
            var row = counted[id];
            var (registration, state, extra) = row;
            var set = new InstanceFactSet
            {
                Instance = InstanceFactRow.Facts(registration, state, extra) with { AvailabilityGroups = Take(availabilityGroups!, id) },
                Files = Take(files!, id),
                Encryption = Take(encryption!, id),
                GrowthEvents = events,
                History = Take(observations!, id),
            };
            var login = LoginOf(registration);
            var (assessment, windows, validUntil) = InstanceAssessor.Assess(state, set, policy, rateOptions, now, login);
            assessed[id] = new Assessed(assessment, windows, new AssessmentBasis(row, login, waivers[id]), validUntil);
        }

        if (reassessing)
        {
            await foreach (var (id, events) in facts.GrowthEventsByInstanceAsync(now - InstanceAssessor.History, readIds, ct))
                Assess(id, events);
            foreach (var id in due.Where(dueSet.Contains).ToList())
                Assess(id, []);
        }
        var kind = new KeyValuePair<string, object?>(KindTag, kept is null ? EveryInstanceKind : IncrementalKind);
        _builds.Add(1, kind);
        _reassessed.Add(due.Count, kind);

        // What the assessment shows as of now: what remediation is pending, and the moment the windows end.
        var ordered = assessed.Values
            .Select(a => a.At(now, pending.GetValueOrDefault(a.Assessment.Registration.Id)))
            .OrderBy(a => a.Assessment.Registration.Name, StringComparer.OrdinalIgnoreCase)
            .ThenBy(a => a.Assessment.Registration.Id)
            .ToList();
        var today = DateOnly.FromDateTime(now.UtcDateTime);
        // A status is seen once the instance has been polled: registering it (which wakes an assessment before its
        // first poll) must not give its first day an Unknown it never had.
        await daily.RecordAsync(today, ordered
            .Where(a => counted[a.Assessment.Registration.Id].State.LastPollAt is not null)
            .Select(a => (a.Assessment.Registration.Id, a.Assessment.Compliance.Status)), ct);
        var series = DailyComplianceSeries.EndingWithNow(await DailySeriesAsync(today, everyInstance || kept is null, ct), today,
            FleetSummaries.Count(ordered.Select(a => new AssessedInstance(a.Assessment.Facts, a.Assessment.Compliance))));

        ZeroingReport Window(int index, int days) =>
            ZeroingReportBuilder.Combine(now.AddDays(-days), now, ordered.Select(a => a.Windows[index]).ToList());
        var fleet = new FleetAssessment
        {
            ComputedAt = now,
            PolicyVersion = policy.Version,
            Instances = ordered.Select(a => a.Assessment).ToList(),
            Last7Days = Window(0, 7),
            Last30Days = Window(1, 30),
            Last90Days = Window(2, 90),
            Daily = series,
            LastPollAt = counted.Values.Max(a => a.State.LastPollAt),
            Polled = counted.Values.Count(a => a.State.LastPollAt is not null),
            DuplicateOf = duplicates,
        };
        return (fleet, new Previous(now, policy.Version, ordered.ToDictionary(a => a.Assessment.Registration.Id), active, duplicates));
    }

    // Lists, not the lookup's groupings: a grouping links to the lookup's others, so one kept would keep them all.
    // The lookup (and the task whose result it is) is read in this method's frame, never in AssessAsync's: on SQLite
    // every await there completes at once, so the whole build runs in one call of its state machine, and the runtime
    // may report a temporary of that call as alive until it returns. A gcdump at the build's peak found every file
    // row and poll observation kept by the fleet's lookups that way, with Take letting none of them go.
    static async Task<Dictionary<long, List<T>>> ByInstanceAsync<T>(Func<Task<ILookup<long, T>>> read) =>
        (await read()).ToDictionary(g => g.Key, g => g.ToList());

    /// <summary>An instance's rows, no longer held by the build once taken; none when the store has none for it.</summary>
    static List<T> Take<T>(Dictionary<long, List<T>> rows, long id) => rows.Remove(id, out var taken) ? taken : [];

    static bool SameInventory(IReadOnlyDictionary<long, ActiveInstance> before, IReadOnlyDictionary<long, ActiveInstance> now) =>
        before.Count == now.Count && now.All(n => before.TryGetValue(n.Key, out var b)
            && SameRegistration(b.Registration, n.Value.Registration) && b.Facts.ServerName == n.Value.Facts.ServerName);

    // By value: the record's own equality compares the tags by reference.
    static bool SameRegistration(InstanceRegistration a, InstanceRegistration b) =>
        a.Tags.SequenceEqual(b.Tags) && a == b with { Tags = a.Tags };

    /// <summary>
    /// The compliance recorded per day over the last 90 days. Only today's entries change (the assessment records the
    /// day it runs on), so the days before are read again only when the day changed or everything is assessed anew.
    /// </summary>
    async Task<IReadOnlyList<DailyCompliance>> DailySeriesAsync(DateOnly today, bool readAll, CancellationToken ct)
    {
        if (readAll || _pastDays is not { } past || past.Today != today)
        {
            var days = DailyComplianceSeries.Build(await daily.ReadAsync(today.AddDays(-89), ct));
            _pastDays = new PastDays(today, days.Where(d => d.Day < today).ToList());
            return days;
        }
        return [.. past.Days, .. DailyComplianceSeries.Build(await daily.ReadAsync(today, ct))];
    }

    // The credential's user name where this server holds it; a standalone collector's credential is named instead.
    string ResolveLogin(string credentialName)
    {
        try
        {
            return credentials?.Resolve(credentialName) switch
            {
                null => $"<login of credential {credentialName}>",
                { IsIntegratedSecurity: true } => RemediationAdvisor.CollectorLoginPlaceholder,
                var login => login.UserId!,
            };
        }
        catch (FormatException)
        {
            return $"<login of credential {credentialName}>";
        }
    }

    /// <summary>
    /// The previous build: when it ran, under which rules, each counted instance's assessment, and the active
    /// instances with the duplicates found among them.
    /// </summary>
    sealed record Previous(DateTimeOffset At, int PolicyVersion, IReadOnlyDictionary<long, Assessed> Instances,
        IReadOnlyDictionary<long, ActiveInstance> Active, IReadOnlyDictionary<long, InstanceRegistration> Duplicates);

    sealed record PastDays(DateOnly Today, IReadOnlyList<DailyCompliance> Days);

    /// <summary>
    /// One instance's assessment with its part of the fleet's 7, 30 and 90-day reports, what it was computed from, and
    /// the first moment at which the same facts would be assessed otherwise.
    /// </summary>
    sealed record Assessed(InstanceAssessment Assessment, IReadOnlyList<InstanceZeroing> Windows, AssessmentBasis Basis,
        DateTimeOffset ValidUntil)
    {
        /// <summary>
        /// The assessment as a build at <paramref name="now"/> shows it: the pending remediation is read on every build,
        /// and the windows end now. A copy of the two records only; everything else is shared with the previous build.
        /// </summary>
        public Assessed At(DateTimeOffset now, RemediationPending? pending) =>
            Assessment.TimeLost.WindowsEndAt == now && Assessment.RemediationPending == pending
                ? this
                : this with
                {
                    Assessment = Assessment with
                    {
                        RemediationPending = pending,
                        TimeLost = Assessment.TimeLost with { WindowsEndAt = now },
                    },
                };
    }

    /// <summary>
    /// What an instance's assessment is computed from besides its files, TDE, history and growth events (which change
    /// only with a stored poll, counted in <see cref="InstanceFactRow.PollsStored"/>), the policy's rules and the clock.
    /// </summary>
    sealed record AssessmentBasis(ActiveInstance Row, string CollectorLogin, IEnumerable<Waiver> Waivers)
    {
        // Compared by value: the records' own equality would compare the lists by reference.
        public bool Equals(AssessmentBasis? other) =>
            other is not null
            && Row.State == other.Row.State
            && Row.Facts == other.Row.Facts
            && CollectorLogin == other.CollectorLogin
            && SameRegistration(Row.Registration, other.Row.Registration)
            && Waivers.SequenceEqual(other.Waivers);

        public override int GetHashCode() => Row.Registration.Id.GetHashCode();
    }

    /// <summary>
    /// The registration the next build compares an instance with (the one its assessment shows while it is unchanged);
    /// null before the first build or for an instance that was not active.
    /// </summary>
    internal InstanceRegistration? RegistrationHeldFor(long instanceId) =>
        _previous?.Active.GetValueOrDefault(instanceId)?.Registration;
}

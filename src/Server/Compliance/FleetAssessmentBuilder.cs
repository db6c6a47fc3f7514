using IfiDashboard.Collector.Credentials;
using IfiDashboard.Server.Store.Dashboard;
using IfiDashboard.Server.Store.Inventory;
using IfiDashboard.Server.Store.Policy;
using IfiDashboard.Server.Store.Remediation;
using IfiDashboard.Shared.Compliance.Facts;
using IfiDashboard.Shared.Compliance.Remediation;
using IfiDashboard.Shared.Compliance.Summary;
using IfiDashboard.Shared.Compliance.Zeroing;
using IfiDashboard.Shared.Dashboard;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Compliance;

/// <summary>Reads the store and assesses every active instance; growth events stream one instance at a time.</summary>
public sealed class FleetAssessmentBuilder(
    FactsReader facts,
    PolicyStore policies,
    DailyComplianceStore daily,
    RemediationPacks remediation,
    ZeroingRateOptions rateOptions,
    TimeProvider time,
    ICredentialResolver? credentials = null)
{
    static readonly TimeSpan History = TimeSpan.FromDays(90);

    public async Task<FleetAssessment> BuildAsync(CancellationToken ct)
    {
        var now = time.GetUtcNow();
        var active = (await facts.ActiveInstancesAsync(ct)).ToDictionary(a => a.Registration.Id);
        var duplicates = InventoryFields.Duplicates(active.Values.Select(a => a.Registration), id => active[id].Facts.ServerName);
        var counted = active.Values.Where(a => !duplicates.ContainsKey(a.Registration.Id)).ToDictionary(a => a.Registration.Id);
        var files = await facts.FilesAsync(null, ct);
        var encryption = await facts.EncryptionAsync(null, ct);
        var observations = await facts.ObservationsAsync(null, ct);
        var policy = await policies.GetCurrentAsync(ct);
        var pending = await remediation.PendingAsync(ct);

        var assessed = new Dictionary<long, (InstanceAssessment Assessment, IReadOnlyList<InstanceZeroing> Windows)>();
        void Assess(long id, List<GrowthEventFacts> events)
        {
            if (!counted.TryGetValue(id, out var instance)) return;
            var (registration, state, extra) = instance;
            var set = new InstanceFactSet
            {
                Instance = InstanceAssessor.Facts(registration, state, extra),
                Files = files[id].ToList(),
                Encryption = encryption[id].ToList(),
                GrowthEvents = events,
                History = observations[id].ToList(),
            };
            var assessment = InstanceAssessor.Assess(registration, state, set, policy, rateOptions, now, LoginOf(registration), out var windows);
            assessed[id] = (assessment with { RemediationPending = pending.GetValueOrDefault(id) }, windows);
        }

        await foreach (var (id, events) in facts.GrowthEventsByInstanceAsync(now - History, null, ct))
            Assess(id, events);
        foreach (var id in counted.Keys.Where(id => !assessed.ContainsKey(id)))
            Assess(id, []);

        var ordered = assessed.Values.OrderBy(a => a.Assessment.Registration.Name, StringComparer.OrdinalIgnoreCase).ToList();
        var today = DateOnly.FromDateTime(now.UtcDateTime);
        // A status is seen once the instance has been polled: registering it (which wakes an assessment before its
        // first poll) must not give its first day an Unknown it never had.
        await daily.RecordAsync(today, ordered
            .Where(a => counted[a.Assessment.Registration.Id].State.LastPollAt is not null)
            .Select(a => (a.Assessment.Registration.Id, a.Assessment.Compliance.Status)), ct);
        var series = DailyComplianceSeries.EndingWithNow(DailyComplianceSeries.Build(await daily.ReadAsync(today.AddDays(-89), ct)), today,
            FleetSummaries.Count(ordered.Select(a => new AssessedInstance(a.Assessment.Facts, a.Assessment.Compliance))));

        // The credential's user name where this server holds it; a standalone collector's credential is named instead.
        string LoginOf(InstanceRegistration registration)
        {
            if (registration.CredentialName is not { } name) return RemediationAdvisor.CollectorLoginPlaceholder;
            try
            {
                return credentials?.Resolve(name) switch
                {
                    null => $"<login of credential {name}>",
                    { IsIntegratedSecurity: true } => RemediationAdvisor.CollectorLoginPlaceholder,
                    var login => login.UserId!,
                };
            }
            catch (FormatException)
            {
                return $"<login of credential {name}>";
            }
        }

        ZeroingReport Window(int index, int days) =>
            ZeroingReportBuilder.Combine(now.AddDays(-days), now, ordered.Select(a => a.Windows[index]).ToList());
        return new FleetAssessment
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
    }
}

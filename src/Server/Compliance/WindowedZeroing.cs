using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Store.Facts;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Growth events and time lost for any window, not only the assessment's 7/30/90 days. Events stream from the store
/// one instance at a time; the instance facts (version, platform, today's IFI) come from the latest assessment and
/// the IFI history and TDE state from the store, as the background assessment does.
/// </summary>
public sealed class WindowedZeroing(FactsReader facts)
{
    /// <summary>The instance's autogrowth events that started in [from, to), judged, in store order.</summary>
    public async Task<IReadOnlyList<GrowthEventAssessment>> GrowthEventsAsync(InstanceAssessment instance,
        DateTimeOffset from, DateTimeOffset to, CancellationToken ct)
    {
        var id = instance.Registration.Id;
        var events = new List<GrowthEventFacts>();
        await foreach (var (_, batch) in facts.GrowthEventsByInstanceAsync(from, [id], ct))
            events.AddRange(batch.Where(e => e.StartTime < to));
        events.Sort(GrowthEventCursor.Compare);
        var set = Set(instance, events, await facts.EncryptionAsync([id], ct), await facts.ObservationsAsync([id], ct));
        return GrowthEventAssessor.AssessAll(set);
    }

    /// <summary>Every assessed instance's zeroing in [from, to); instances without events have zero totals.</summary>
    public async Task<ZeroingReport> ReportAsync(FleetAssessment fleet, DateTimeOffset from, DateTimeOffset to, CancellationToken ct)
    {
        var encryption = await facts.EncryptionAsync(null, ct);
        var observations = await facts.ObservationsAsync(null, ct);
        var byId = fleet.Instances.ToDictionary(i => i.Registration.Id);
        var parts = new Dictionary<long, InstanceZeroing>();
        await foreach (var (id, events) in facts.GrowthEventsByInstanceAsync(from, null, ct))
        {
            // Retired since the assessment, or registered after it: not part of this report.
            if (byId.TryGetValue(id, out var instance))
                parts[id] = ZeroingReportBuilder.BuildInstance(Set(instance, events, encryption, observations), from, to);
        }
        var ordered = fleet.Instances
            .Select(i => parts.GetValueOrDefault(i.Registration.Id)
                         ?? ZeroingReportBuilder.BuildInstance(Set(i, [], encryption, observations), from, to))
            .ToList();
        return ZeroingReportBuilder.Combine(from, to, ordered);
    }

    static InstanceFactSet Set(InstanceAssessment instance, List<GrowthEventFacts> events,
        ILookup<long, DatabaseEncryptionFacts> encryption, ILookup<long, PollObservation> observations) => new()
    {
        Instance = instance.Facts,
        Encryption = encryption[instance.Registration.Id].ToList(),
        GrowthEvents = events,
        History = observations[instance.Registration.Id].ToList(),
    };
}

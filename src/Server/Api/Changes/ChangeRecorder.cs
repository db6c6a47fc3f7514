using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Store.Changes;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// Brings the journal up to date with the latest assessment (status transitions; inventory changes are journaled by
/// the writes themselves). Runs
/// after every assessment (<see cref="ChangeJournalService"/>) and before every read of the feed, so a client never
/// sees a feed that lags what the other endpoints already show.
/// </summary>
public sealed class ChangeRecorder(IFleetAssessments assessments, ChangeJournal journal)
{
    readonly SemaphoreSlim _recording = new(1, 1);
    DateTimeOffset? _lastAssessment;
    // Weak: the recorder must not keep an assessment alive beside the one in use.
    WeakReference<FleetAssessment>? _lastRecorded;

    public async Task CatchUpAsync(CancellationToken ct)
    {
        await _recording.WaitAsync(ct);
        try
        {
            var fleet = await assessments.GetAsync(ct);
            // Assessments only move forward, but an older one must never be compared after a newer one. A newer one
            // can carry the same time (a test clock, or two builds within the clock's resolution): the one recorded is
            // known by reference, so a status change is never journaled late.
            if (_lastAssessment is { } last && fleet.ComputedAt < last)
                return;
            if (_lastRecorded is not null && _lastRecorded.TryGetTarget(out var recorded) && ReferenceEquals(recorded, fleet))
                return;
            var statuses = fleet.Instances
                .Select(i => new StatusObservation(i.Registration.Id, i.Compliance.Status.ToString(), i.Compliance.Explanation))
                .ToList();
            await journal.RecordStatusesAsync(statuses, fleet.ComputedAt, ct);
            _lastAssessment = fleet.ComputedAt;
            _lastRecorded = new WeakReference<FleetAssessment>(fleet);
        }
        finally
        {
            _recording.Release();
        }
    }
}

using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Store;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Keeps the fleet's assessment current: recomputed in the background shortly after stored data changes (a burst of
/// polls is one recompute, and while polls keep landing rebuilds are spaced: see <see cref="RebuildPacing"/>) and
/// every minute (staleness, waiver expiry and the windows' edges depend on the clock alone), each time assessing again
/// only the instances that changed or whose assessment ran out (<see cref="FleetAssessmentBuilder"/>). Pages read the
/// latest result from memory.
/// </summary>
public sealed class FleetAssessments(
    FleetAssessmentBuilder builder,
    FleetChanges changes,
    IEnumerable<IAssessmentPreparer> preparers,
    TimeProvider time,
    StoreAvailability availability,
    ILogger<FleetAssessments> logger) : BackgroundService, IFleetAssessments
{
    static readonly TimeSpan Refresh = TimeSpan.FromMinutes(1);

    readonly SemaphoreSlim _computing = new(1, 1);
    readonly SemaphoreSlim _changed = new(0);
    readonly RebuildPacing _pacing = new(time);
    FleetAssessment? _current;

    public event Action? Assessed;

    public async Task<FleetAssessment> GetAsync(CancellationToken cancellationToken) =>
        Volatile.Read(ref _current) ?? await ComputeAsync(onlyIfMissing: true, cancellationToken);

    /// <summary>Assesses every instance anew from the store (on demand; the background keeps it current incrementally).</summary>
    public Task<FleetAssessment> RecomputeAsync(CancellationToken cancellationToken) =>
        ComputeAsync(onlyIfMissing: false, everyInstance: true, cancellationToken);

    void Prepare(FleetAssessment assessment)
    {
        foreach (var preparer in preparers)
        {
            try
            {
                preparer.Prepare(assessment);
            }
            catch (Exception e)
            {
                // What it derives is derived again on demand (a page's model): the assessment itself is what matters.
                logger.LogWarning(e, "Preparing {Preparer} for a new assessment failed; published without it", preparer.GetType().Name);
            }
        }
    }

    Task<FleetAssessment> ComputeAsync(bool onlyIfMissing, CancellationToken cancellationToken) =>
        ComputeAsync(onlyIfMissing, everyInstance: false, cancellationToken);

    async Task<FleetAssessment> ComputeAsync(bool onlyIfMissing, bool everyInstance, CancellationToken cancellationToken)
    {
        await _computing.WaitAsync(cancellationToken);
        try
        {
            // At start-up the pages, alerts and the change journal all ask before the first assessment exists; those
            // that queued behind the first build take its result instead of building again (seconds at 10,000
            // instances and a million growth events).
            if (onlyIfMissing && Volatile.Read(ref _current) is { } built)
                return built;
            var assessment = everyInstance
                ? await builder.RebuildAsync(cancellationToken)
                : await builder.BuildAsync(cancellationToken);
            Prepare(assessment);
            Volatile.Write(ref _current, assessment);
            availability.DataRead(assessment.ComputedAt);
            Assessed?.Invoke();
            return assessment;
        }
        finally
        {
            _computing.Release();
        }
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        void OnChanged() => _changed.Release();
        changes.Changed += OnChanged;
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                await _changed.WaitAsync(Refresh, stoppingToken);
                await Task.Delay(_pacing.DelayAfterChange(), time, stoppingToken);
                while (_changed.CurrentCount > 0) await _changed.WaitAsync(stoppingToken);
                var startedAt = time.GetUtcNow();
                var allocatedBefore = GC.GetTotalAllocatedBytes();
                try
                {
                    var assessment = await ComputeAsync(onlyIfMissing: false, stoppingToken);
                    _pacing.Built(startedAt, assessment.Instances.Count);
                    RebuildMemory.Release(GC.GetTotalAllocatedBytes() - allocatedBefore);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    // A store outage is logged once, by StoreAvailability; anything else is a fault of its own.
                    if (!availability.ReportFailedRead("Assessing the fleet failed.", e))
                        logger.LogError(e, "Assessing the fleet failed; the previous assessment stays in use");
                }
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
        finally
        {
            changes.Changed -= OnChanged;
        }
    }
}

using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Server.Alerts.Delivery;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Compliance.Alerts;
using IfiDashboard.Server.Alerts.Rules;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Alerts;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Alerts;

/// <summary>
/// Runs the alert rules, and the failover notices (<see cref="FailoverAlerts"/>), over each new fleet assessment (<see cref="FleetAssessments.Assessed"/>, after stored changes
/// and every minute). Idempotent: the episodes in the store decide what is new, so evaluating twice sends nothing twice.
/// </summary>
public sealed class AlertEvaluation(
    FleetAssessments assessments,
    AlertStateStore states,
    FailoverAlertStore failovers,
    OutboxStore outbox,
    OutboxDelivery delivery,
    AlertSettings alertSettings,
    IOptions<AlertOptions> options,
    TimeProvider time,
    ILogger<AlertEvaluation> logger) : BackgroundService
{
    // The loop also runs without an event now and then, in case one was missed while an evaluation failed.
    static readonly TimeSpan Fallback = TimeSpan.FromMinutes(5);

    readonly SemaphoreSlim _evaluating = new(1, 1);
    readonly WakeSignal _assessed = new();
    DateOnly? _digestDay;

    /// <summary>Evaluates the current assessment now; returns how many messages it put in the outbox.</summary>
    public async Task<int> EvaluateNowAsync(CancellationToken ct)
    {
        await _evaluating.WaitAsync(ct);
        try
        {
            // Read each time: an Administrator's change on /alerts/settings applies from the next evaluation.
            var (settings, _) = await alertSettings.GetAsync(ct);
            var fleet = await assessments.GetAsync(ct);
            // Read before the evaluation's transaction: a concurrent evaluation can only make the count larger, and
            // then the storm starts one evaluation later.
            var recent = await outbox.RecentAlertMailAsync(fleet.ComputedAt - settings.Storm.Window, ct);
            var written = await states.EvaluateAsync((stored, baselined, silences) =>
            {
                var plan = AlertEvaluator.Evaluate(fleet, stored, baselined, silences, settings);
                return (plan, StormGrouping.Messages(plan.Notices, recent, settings, fleet.ComputedAt));
            }, ct);
            written += await failovers.EvaluateAsync((changes, silences) => FailoverAlerts.Plan(fleet, changes, silences, settings), ct);
            written += await WriteDigestAsync(fleet, settings, ct);
            if (written > 0)
            {
                logger.LogInformation("Alert evaluation queued {Count} message(s)", written);
                delivery.Wake();
            }
            return written;
        }
        finally
        {
            _evaluating.Release();
        }
    }

    async Task<int> WriteDigestAsync(FleetAssessment fleet, AlertOptions settings, CancellationToken ct)
    {
        if (!settings.Digest.Enabled) return 0;
        var now = fleet.ComputedAt.UtcDateTime;
        var day = DateOnly.FromDateTime(now);
        if (now.TimeOfDay < settings.Digest.TimeUtc || _digestDay == day) return 0;
        // Before the first round of polls every instance is "not polled yet": a digest then would report them all as unknown.
        if (fleet.Instances.Count == 0 || fleet.Polled < fleet.Instances.Count) return 0;
        // After a restart the store, not memory, says whether today's digest was written.
        var written = await outbox.ExistsAsync(DigestPlanner.DedupeKeyPrefix(day), ct)
            ? 0
            : await outbox.AddAsync(DigestPlanner.Plan(fleet, settings, day), ct);
        _digestDay = day;
        return written;
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (!options.Value.Enabled) return;
        void OnAssessed() => _assessed.Set();
        assessments.Assessed += OnAssessed;
        try
        {
            while (!stoppingToken.IsCancellationRequested)
            {
                var woken = _assessed.Arm();
                try
                {
                    await EvaluateNowAsync(stoppingToken);
                }
                catch (Exception e) when (e is not OperationCanceledException)
                {
                    logger.LogError(e, "Evaluating alerts failed; the next assessment tries again");
                }
                await WakeSignal.WaitAsync(woken, Fallback, time, stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
        }
        finally
        {
            assessments.Assessed -= OnAssessed;
        }
    }
}

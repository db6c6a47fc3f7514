using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>
/// Estimates zeroing speed from the instance's own data-file growths that were zeroed: bytes grown over the time
/// the growth took. The median, because one growth that queued behind a backup must not drag the figure; weighted by
/// the bytes grown, and only growths of at least <see cref="ZeroingRateOptions.MinimumSampleBytes"/>, because a small
/// growth's time is mostly the fixed cost of growing a file, not the disk's zeroing speed.
/// </summary>
public static class ZeroingRateEstimator
{
    public static InstanceZeroingRates Estimate(InstanceFactSet facts, ZeroingRateOptions options) =>
        Estimate(facts, GrowthEventAssessor.AssessAll(facts), options);

    /// <param name="assessments">
    /// The set's judged autogrowth events (<see cref="GrowthEventAssessor.AssessAll"/>), for a caller that has them
    /// already: judging a busy instance's events again would allocate as much again.
    /// </param>
    public static InstanceZeroingRates Estimate(InstanceFactSet facts, IReadOnlyList<GrowthEventAssessment> assessments,
        ZeroingRateOptions options)
    {
        var volumes = new Volumes(options.MountRoots);
        var fileVolumes = facts.Files
            .GroupBy(f => (f.DatabaseId, Name: f.LogicalName.ToUpperInvariant()))
            .ToDictionary(g => g.Key, g => volumes.Of(g.First()).Name);

        var samples = assessments
            .Where(a => a.IsDataZeroingSample)
            .Select(a => a.Event)
            .Where(e => e.SafeDurationMicroseconds > 0 && e.GrowthBytes >= ZeroingRateOptions.MinimumSampleBytes)
            .Select(e => (Rate: BytesPerSecond(e), Weight: (double)e.GrowthBytes,
                Volume: fileVolumes.GetValueOrDefault((e.DatabaseId, e.LogicalFileName.ToUpperInvariant()))))
            .ToList();

        var instanceRate = MedianRate(samples.Select(s => (s.Rate, s.Weight)).ToList(), RateMethod.MedianOfInstanceEvents)
            ?? options.AssumedRate;

        var distinctVolumes = fileVolumes.Values.Distinct().ToList();
        var perVolume = distinctVolumes.Count < 2
            ? new Dictionary<string, ZeroingRate>()
            : distinctVolumes.ToDictionary(v => v, v =>
                MedianRate(samples.Where(s => s.Volume == v).Select(s => (s.Rate, s.Weight)).ToList(), RateMethod.MedianOfVolumeEvents)
                ?? instanceRate);

        return new InstanceZeroingRates(facts.Instance.InstanceId, instanceRate, perVolume);
    }

    /// <summary>Growth bytes (pages × 8192) over seconds (µs / 1e6).</summary>
    public static double BytesPerSecond(GrowthEventFacts growth) =>
        growth.GrowthBytes / (growth.SafeDurationMicroseconds / 1_000_000.0);

    static ZeroingRate? MedianRate(IReadOnlyCollection<(double Rate, double Weight)> samples, RateMethod method) =>
        Median.Weighted(samples) is { } median ? new ZeroingRate(median, samples.Count, method) : null;
}

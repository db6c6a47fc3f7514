using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Zeroing;

public enum GrowthTimingSuggestion
{
    /// <summary>No data-file growth large enough to tell, or the growths disagree.</summary>
    None,
    /// <summary>Every measurable growth finished faster than any disk zeroes: IFI looks on.</summary>
    SuggestsOn,
    /// <summary>Every measurable growth ran at zeroing speed: IFI looks off.</summary>
    SuggestsOff,
}

/// <summary>
/// What an instance's own data-file growths say about IFI while its state is unknown. It is evidence, shown as such
/// ("growths suggest IFI is on"), never the state: the state stays unknown and the time lost with it.
/// </summary>
public sealed record GrowthTimingEvidence(GrowthTimingSuggestion Suggestion, int Growths, long BytesPerSecond)
{
    public static readonly GrowthTimingEvidence None = new(GrowthTimingSuggestion.None, 0, 0);

    /// <summary>
    /// The growths that say something about the disk are the ones a zeroing rate is measured from
    /// (<see cref="ZeroingRateOptions.MinimumSampleBytes"/>): smaller ones finish in milliseconds either way.
    /// </summary>
    public const long MinimumGrowthBytes = ZeroingRateOptions.MinimumSampleBytes;

    /// <summary>Published zeroing rates reach about 3 GB/s (NVMe): a faster growth was not zeroed.</summary>
    public const long FasterThanZeroingBytesPerSecond = 4L * 1024 * 1024 * 1024;

    /// <summary>A growth slower than this was written out; one stalled by blocking could be too, so two are needed.</summary>
    public const long ZeroingSpeedBytesPerSecond = 1L * 1024 * 1024 * 1024;

    public string Describe() => Suggestion switch
    {
        GrowthTimingSuggestion.SuggestsOn => $"growths suggest IFI is on ({Growths} data-file growths of 256 MB or more, each faster than disks zero)",
        GrowthTimingSuggestion.SuggestsOff => $"growths suggest IFI is off ({Growths} data-file growths of 256 MB or more at zeroing speed)",
        _ => "",
    };

    /// <param name="assessments">Judged growths; only data-file growths whose IFI state is unknown count.</param>
    public static GrowthTimingEvidence From(IEnumerable<GrowthEventAssessment> assessments)
    {
        var rates = assessments
            .Where(a => a.Zeroing == GrowthZeroing.IfiUnknown && a.Event.IsDataGrowth && a.Event.GrowthBytes >= MinimumGrowthBytes)
            .Select(a => RateOf(a.Event))
            .ToList();
        if (rates.Count == 0) return None;
        if (rates.All(r => r >= FasterThanZeroingBytesPerSecond))
            return new(GrowthTimingSuggestion.SuggestsOn, rates.Count, rates.Min());
        if (rates.Count >= 2 && rates.All(r => r < ZeroingSpeedBytesPerSecond))
            return new(GrowthTimingSuggestion.SuggestsOff, rates.Count, rates.Max());
        return None;
    }

    static long RateOf(GrowthEventFacts growth) => growth.SafeDurationMicroseconds <= 0
        ? long.MaxValue
        : (long)Math.Min(long.MaxValue, growth.GrowthBytes * 1_000_000.0 / growth.SafeDurationMicroseconds);
}

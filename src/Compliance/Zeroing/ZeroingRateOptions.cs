namespace IfiDashboard.Compliance.Zeroing;

public sealed record ZeroingRateOptions
{
    /// <summary>
    /// 100 MB/s. Measured zeroing speeds run from about 5 MB/s to over 3 GB/s, so no constant is right; this one
    /// sits at the low end of ordinary SAN storage, and every figure built on it is labelled assumed.
    /// </summary>
    public const double DefaultBytesPerSecondValue = 100.0 * 1024 * 1024;

    /// <summary>
    /// 256 MB: the smallest growth taken as a rate sample. At the fastest published zeroing rates (about 3 GB/s) it
    /// still lasts some 80 ms, well above the few milliseconds any growth costs; a 64 MB growth (the default
    /// increment since SQL Server 2016) finishes in about 20 ms there, so its time says little about the disk.
    /// </summary>
    public const long MinimumSampleBytes = 256L * 1024 * 1024;

    public double DefaultBytesPerSecond { get; init; } = DefaultBytesPerSecondValue;

    /// <summary>Mount points the fleet uses ("/data1", @"D:\Mounts\Data1\"), so files under them share a volume.</summary>
    public IReadOnlyList<string> MountRoots { get; init; } = [];

    public ZeroingRate AssumedRate => new(DefaultBytesPerSecond, 0, RateMethod.AssumedDefault);
}

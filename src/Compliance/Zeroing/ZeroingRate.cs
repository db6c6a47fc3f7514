namespace IfiDashboard.Compliance.Zeroing;

/// <summary>How fast a volume writes zeroes, and where the figure comes from.</summary>
public sealed record ZeroingRate(double BytesPerSecond, int SampleCount, RateMethod Method)
{
    public bool IsAssumed => Method == RateMethod.AssumedDefault;

    public double MegabytesPerSecond => BytesPerSecond / (1024.0 * 1024.0);

    public double SecondsToZero(long bytes) => bytes <= 0 ? 0 : bytes / BytesPerSecond;

    public string Describe() => Method switch
    {
        RateMethod.MedianOfVolumeEvents =>
            $"{ComplianceFormat.Number(MegabytesPerSecond, 1)} MB/s, size-weighted median of {SampleCount} growth events on this volume",
        RateMethod.MedianOfInstanceEvents =>
            $"{ComplianceFormat.Number(MegabytesPerSecond, 1)} MB/s, size-weighted median of {SampleCount} growth events on this instance",
        _ => $"{ComplianceFormat.Number(MegabytesPerSecond, 1)} MB/s, assumed (no zeroed data-file growth of 256 MB or more traced)",
    };
}

public enum RateMethod
{
    MedianOfVolumeEvents,
    MedianOfInstanceEvents,
    AssumedDefault,
}

using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Server.Compliance;

/// <summary>The <c>Compliance</c> configuration section: what the engine assumes where the fleet says nothing.</summary>
public sealed class ComplianceOptions
{
    public const string Section = "Compliance";

    /// <summary>Zeroing measured in the field runs from about 5 MB/s to over 3 GB/s; outside 1 to 100,000 is a typo.</summary>
    public const double MinZeroingMBps = 1;
    public const double MaxZeroingMBps = 100_000;

    public double DefaultZeroingMBps { get; set; } = ZeroingRateOptions.DefaultBytesPerSecondValue / 1024 / 1024;

    public List<string> MountRoots { get; set; } = [];

    public ZeroingRateOptions ZeroingRates() => new()
    {
        DefaultBytesPerSecond = DefaultZeroingMBps * 1024 * 1024,
        MountRoots = MountRoots,
    };
}

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>
/// An instance's zeroing rate, and one per volume when its files sit on several. A volume without its own samples
/// carries the instance's rate.
/// </summary>
public sealed record InstanceZeroingRates(
    long InstanceId,
    ZeroingRate Instance,
    IReadOnlyDictionary<string, ZeroingRate> Volumes)
{
    public ZeroingRate ForVolume(string volume) => Volumes.GetValueOrDefault(volume, Instance);
}

namespace IfiDashboard.Store;

/// <summary>
/// Tells open pages that stored fleet data changed (a poll landed, an instance was registered), so they refresh
/// without polling the store on a timer.
/// </summary>
public sealed class FleetChanges
{
    public event Action? Changed;

    public void Publish() => Changed?.Invoke();
}

namespace IfiDashboard.Store.Alerts;

/// <summary>Alert mail written within the storm window, per recipient list (as stored).</summary>
public sealed record RecentAlertMail(IReadOnlyDictionary<string, int> Single, IReadOnlySet<string> Grouped)
{
    public static readonly RecentAlertMail None = new(new Dictionary<string, int>(), new HashSet<string>());

    public int SentTo(string recipientsKey) => Single.GetValueOrDefault(recipientsKey);

    public bool GroupedTo(string recipientsKey) => Grouped.Contains(recipientsKey);
}

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>Time spent zeroing in [<see cref="From"/>, <see cref="To"/>), fleet-wide, per instance and per database.</summary>
public sealed record ZeroingReport(
    DateTimeOffset From,
    DateTimeOffset To,
    ZeroingTotals Fleet,
    IReadOnlyList<InstanceZeroing> Instances);

public sealed record InstanceZeroing(
    long InstanceId,
    string InstanceName,
    ZeroingTotals Totals,
    IReadOnlyList<DatabaseZeroing> Databases);

public sealed record DatabaseZeroing(int DatabaseId, string DatabaseName, ZeroingTotals Totals);

namespace IfiDashboard.Compliance.Restore;

public sealed record InstanceRestoreRisk(
    long InstanceId,
    IReadOnlyList<DatabaseRestoreRisk> Databases,
    IReadOnlyList<FileGrowthStall> GrowthStalls);

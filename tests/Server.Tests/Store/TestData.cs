using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>Registrations and snapshots shaped like what the collector produces.</summary>
public static class TestData
{
    public const string EngineAccount = @"NT Service\MSSQLSERVER";
    public static readonly DateTimeOffset EngineStarted = new(2026, 4, 1, 6, 0, 0, TimeSpan.Zero);

    public static InstanceRegistration Registration(string name) => new()
    {
        Name = name,
        Host = name.ToLowerInvariant() + ".corp.example",
        Port = 1433,
        Environment = "Production",
        Owner = "dba-team",
        Tags = ["tier1", "emea"],
        CredentialName = "ifi_collector",
    };

    public static InstanceSnapshot Good(long instanceId, DateTimeOffset at, string ifi = "Y",
        string account = EngineAccount, DateTimeOffset? engineStarted = null) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = at,
        FinishedAt = at.AddMilliseconds(120),
        CollectorName = "collector-a",
        Identity = new InstanceIdentity
        {
            ProductVersion = "16.0.4135.4",
            ProductLevel = "RTM",
            ProductUpdateLevel = "CU15",
            Edition = "Enterprise Edition (64-bit)",
            EngineEdition = 3,
            ServerName = "SQL01",
            HostPlatform = "Windows",
        },
        Services =
        [
            new ServiceInfo
            {
                ServiceName = "SQL Server (MSSQLSERVER)",
                ServiceAccount = account,
                StatusDesc = "Running",
                StartupTypeDesc = "Automatic",
                ProcessId = 4242,
                LastStartupTime = engineStarted ?? EngineStarted,
                InstantFileInitializationEnabled = ifi,
                IsEngine = true,
            },
            new ServiceInfo
            {
                ServiceName = "SQL Server Agent (MSSQLSERVER)",
                ServiceAccount = @"NT Service\SQLSERVERAGENT",
                StatusDesc = "Running",
                ProcessId = 4343,
                InstantFileInitializationEnabled = "N",
            },
        ],
        Probes =
        [
            new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.Identity, OutcomeClass.Ok),
            new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok),
        ],
    };

    public static InstanceSnapshot Unreachable(long instanceId, DateTimeOffset at) => new()
    {
        SnapshotId = Guid.NewGuid(),
        InstanceId = instanceId,
        StartedAt = at,
        FinishedAt = at.AddSeconds(15),
        CollectorName = "collector-a",
        Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, "No route to host", 53)],
    };
}

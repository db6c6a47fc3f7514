using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Compliance.Restore;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Tests.TestData;

/// <summary>
/// An instance as the read model delivers it, described by the few facts a test cares about; everything else gets a
/// plausible default. This is test data for components, not a second compliance engine.
/// </summary>
public sealed record InstanceSpec
{
    public static readonly DateTimeOffset Now = new(2025, 5, 8, 9, 0, 0, TimeSpan.Zero);

    public required long Id { get; init; }
    public required string Name { get; init; }
    public ComplianceStatus Status { get; init; } = ComplianceStatus.Compliant;
    public DesiredState Desired { get; init; } = DesiredState.Required;
    public bool IsStale { get; init; }
    public string Environment { get; init; } = "Production";
    public string? Owner { get; init; } = "dba-team";
    public IReadOnlyList<string> Tags { get; init; } = [];
    public string ProductVersion { get; init; } = "15.0.4385.2";
    public IfiState Ifi { get; init; } = IfiState.Enabled;
    public string? UnknownReason { get; init; }
    public TimeSpan TimeLost30Days { get; init; }
    public double RestoreExtraSeconds { get; init; }
    public string Account { get; init; } = @"NT Service\MSSQLSERVER";
    public string? Explanation { get; init; }
    /// <summary>SERVERPROPERTY('EngineEdition'): 5 is Azure SQL Database.</summary>
    public int? EngineEdition { get; init; }

    public InstanceAssessment Build()
    {
        var lastPoll = IsStale ? Now.AddHours(-2) : Now.AddMinutes(-1);
        var polled = !(Ifi == IfiState.Unknown && UnknownReason == "not polled yet");
        var major = ProductVersions.Major(ProductVersion);
        return new InstanceAssessment
        {
            State = new InstanceState(polled ? ProductVersion : null, "RTM", "CU28",
                "Enterprise Edition", "Windows", Account, Ifi, UnknownReason, polled ? lastPoll : null,
                polled && Ifi != IfiState.Unknown ? lastPoll : null,
                polled ? (Ifi == IfiState.Unknown ? OutcomeClass.Unreachable : OutcomeClass.Ok) : null,
                Ifi == IfiState.Unknown ? "connection refused" : null),
            Facts = new InstanceFacts
            {
                Registration = new InstanceRegistration
                {
                    Id = Id, Name = Name, Host = "10.0.0." + Id % 250, Port = 1433, Environment = Environment, Owner = Owner,
                    Tags = Tags, CredentialName = "fleet",
                },
                MajorVersion = polled ? major : 0, Ifi = new IfiObservation(Ifi, UnknownReason), LastGoodPollAt = lastPoll,
                EngineServiceAccount = Account, MachineName = Name.ToUpperInvariant(), EngineEdition = EngineEdition,
            },
            Compliance = new InstanceCompliance
            {
                InstanceId = Id, Status = Status,
                Policy = new PolicyDecision(Desired, PolicySource.Default, null), PolicyVersion = 3, Observed = Ifi,
                UnknownReason = Status == ComplianceStatus.Unknown ? UnknownReason ?? "unreachable" : null,
                IsStale = IsStale,
                Explanation = Explanation ?? Status switch
                {
                    ComplianceStatus.NonCompliant => "IFI is off but the default policy requires it",
                    ComplianceStatus.Unknown => $"IFI state unknown ({UnknownReason ?? "unreachable"})",
                    _ => "IFI is on, as the default policy requires",
                },
            },
            Rates = new InstanceZeroingRates(Id, new ZeroingRate(100 * 1024 * 1024, 0, RateMethod.AssumedDefault),
                new Dictionary<string, ZeroingRate>()),
            Restore = new InstanceRestoreRisk(Id, RestoreExtraSeconds <= 0 ? [] :
            [
                new DatabaseRestoreRisk
                {
                    InstanceId = Id, InstanceName = Name, DatabaseId = 5, DatabaseName = "Sales",
                    DataBytes = (long)(RestoreExtraSeconds * 100 * 1024 * 1024), ZeroedDataBytes = (long)(RestoreExtraSeconds * 100 * 1024 * 1024),
                    ExtraSeconds = RestoreExtraSeconds, ZeroedVolumes = 1, LogBytes = 0, LogZeroingSeconds = 0, RateAssumed = true,
                    IfiUnknown = false, TdeEncrypted = false,
                },
            ], []),
            Account = new ServiceAccountClassification(Account, ServiceAccountKind.VirtualAccount, false, "The per-service virtual account"),
            TimeLost = new TimeLost(TimeLost30Days / 4, TimeLost30Days, TimeLost30Days * 2, TimeSpan.FromSeconds(3)),
        };
    }
}

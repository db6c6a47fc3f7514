using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Client.Tests.TestData;

public static class Fleets
{
    static readonly DateTimeOffset Now = InstanceSpec.Now;

    public static FleetAssessment Of(IEnumerable<InstanceAssessment> instances, int? polled = null, IReadOnlyList<DailyCompliance>? daily = null)
    {
        var list = instances.ToList();
        ZeroingReport Report(int days, double share) => new(Now.AddDays(-days), Now, new ZeroingTotals
        {
            TimeLostMicroseconds = (long)(list.Sum(i => i.TimeLost.Last30Days.TotalMicroseconds) * share),
            TimeLostEvents = list.Count(i => i.TimeLost.Last30Days > TimeSpan.Zero),
            LogZeroingMicroseconds = 4_500_000,
        }, []);
        return new FleetAssessment
        {
            ComputedAt = Now,
            PolicyVersion = 3,
            Instances = list,
            Last7Days = Report(7, 0.25),
            Last30Days = Report(30, 1),
            Last90Days = Report(90, 2),
            Daily = daily ?? Days(14),
            LastPollAt = Now.AddMinutes(-1),
            Polled = polled ?? list.Count,
        };
    }

    /// <summary>A mixed fleet of nine: every status, stale and unknown ones, time lost and restore risk.</summary>
    public static IReadOnlyList<InstanceAssessment> Mixed() =>
    [
        new InstanceSpec { Id = 1, Name = "SQLFIN01", Status = ComplianceStatus.NonCompliant, Ifi = Shared.Snapshots.IfiState.Disabled, TimeLost30Days = TimeSpan.FromMinutes(42), RestoreExtraSeconds = 2048, Tags = ["finance", "pci"], Owner = "finance-dba" }.Build(),
        new InstanceSpec { Id = 2, Name = "SQLFIN02", Status = ComplianceStatus.Compliant, Tags = ["finance"], Owner = "finance-dba" }.Build(),
        new InstanceSpec { Id = 3, Name = "SQLHR01", Status = ComplianceStatus.Waived, Ifi = Shared.Snapshots.IfiState.Disabled, TimeLost30Days = TimeSpan.FromMinutes(5), RestoreExtraSeconds = 300, Environment = "Test" }.Build(),
        new InstanceSpec { Id = 4, Name = "SQLOLD", Status = ComplianceStatus.Unknown, Ifi = Shared.Snapshots.IfiState.Unknown, UnknownReason = "build too old", ProductVersion = "11.0.6020.0" }.Build(),
        new InstanceSpec { Id = 5, Name = "SQLGONE", Status = ComplianceStatus.Unknown, Ifi = Shared.Snapshots.IfiState.Unknown, UnknownReason = "unreachable", IsStale = true }.Build(),
        new InstanceSpec { Id = 6, Name = "AZDB01", Status = ComplianceStatus.NotApplicable, Desired = IfiDashboard.Compliance.Policy.DesiredState.NotApplicable, Environment = "Cloud", Owner = null }.Build(),
        new InstanceSpec { Id = 7, Name = "SQLPCI01", Status = ComplianceStatus.NonCompliant, Desired = IfiDashboard.Compliance.Policy.DesiredState.Forbidden, Tags = ["pci"], ProductVersion = "16.0.4135.4", Explanation = "IFI is on but policy 'pci' forbids it" }.Build(),
        new InstanceSpec { Id = 8, Name = "SQLDEV01", Status = ComplianceStatus.Compliant, Environment = "Development", IsStale = true, ProductVersion = "14.0.3456.2" }.Build(),
        new InstanceSpec { Id = 9, Name = "SQLDEV02", Status = ComplianceStatus.Compliant, Environment = "Development", ProductVersion = "16.0.4135.4" }.Build(),
    ];

    /// <summary>The mixed fleet after SQLFIN01 got IFI: compliant now, as a later assessment finds it.</summary>
    public static IReadOnlyList<InstanceAssessment> MixedAfterSqlFin01Fixed() =>
        Mixed().Select(i => i.Registration.Name == "SQLFIN01"
            ? i with { Compliance = i.Compliance with { Status = ComplianceStatus.Compliant } } : i).ToList();

    /// <summary><paramref name="count"/> instances, one in seven non-compliant, one in eleven unknown.</summary>
    public static IReadOnlyList<InstanceAssessment> Large(int count) => Enumerable.Range(1, count).Select(i => new InstanceSpec
    {
        Id = i,
        Name = $"SQL{i:00000}",
        Status = i % 7 == 0 ? ComplianceStatus.NonCompliant : i % 11 == 0 ? ComplianceStatus.Unknown : ComplianceStatus.Compliant,
        Ifi = i % 7 == 0 ? Shared.Snapshots.IfiState.Disabled : i % 11 == 0 ? Shared.Snapshots.IfiState.Unknown : Shared.Snapshots.IfiState.Enabled,
        UnknownReason = i % 11 == 0 && i % 7 != 0 ? "timeout" : null,
        Environment = (i % 3) switch { 0 => "Production", 1 => "Test", _ => "Development" },
        TimeLost30Days = i % 7 == 0 ? TimeSpan.FromSeconds(i % 500) : TimeSpan.Zero,
        Tags = i % 5 == 0 ? ["batch"] : [],
    }.Build()).ToList();

    /// <summary>One entry per day for <paramref name="days"/> days up to today, compliance slowly improving.</summary>
    public static IReadOnlyList<DailyCompliance> Days(int days) => Enumerable.Range(0, days).Select(d =>
        new DailyCompliance(DateOnly.FromDateTime(Now.UtcDateTime).AddDays(d - days + 1),
            new StatusCounts(Compliant: 20 + d, NonCompliant: 20 - d, Waived: 2, Unknown: 1, NotApplicable: 1, Stale: 0))).ToList();
}

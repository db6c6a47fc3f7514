using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class StatusPropertyTests
{
    sealed record Case(InstanceFacts Instance, PolicyDocument Policy, DateTimeOffset At)
    {
        public override string ToString() =>
            $"{Instance.Ifi.State}, edition {Instance.EngineEdition}, env {Instance.Environment}, " +
            $"tags [{string.Join(",", Instance.Tags)}], rules [{string.Join(",", Policy.Rules.Select(r => $"{r.Name}:{r.Desired}"))}], " +
            $"waivers [{string.Join(",", Policy.Waivers.Select(w => $"{w.GrantedAt:O}..{w.ExpiresAt:O}"))}], at {At:O}";
    }

    static Case Generate(Random random)
    {
        var instance = Instance(
            random.Pick(IfiState.Enabled, IfiState.Disabled, IfiState.Unknown),
            environment: random.Pick("Production", "Test", "Dev"),
            tags: random.Pick<string[]>([], ["pci"], ["tier1"], ["pci", "tier1"]),
            engineEdition: random.Pick(2, 3, 4, 5, 8));
        var rules = Enumerable.Range(0, random.Next(4)).Select(i => new PolicyRule
        {
            Name = $"r{i}",
            Environment = random.Pick<string?>(null, "Production", "Test"),
            Tags = random.Pick<string[]>([], ["pci"], ["tier1"]),
            Desired = random.Pick(DesiredState.Required, DesiredState.Forbidden, DesiredState.NotApplicable),
        }).ToList();
        var waivers = Enumerable.Range(0, random.Next(3)).Select(_ => new Waiver
        {
            InstanceId = instance.InstanceId,
            Reason = "r",
            Author = "a",
            GrantedAt = Now.AddHours(random.Next(-48, 2)),
            ExpiresAt = Now.AddHours(random.Next(-2, 48)),
        }).ToList();
        return new Case(instance, new PolicyDocument { Version = 1, Rules = rules, Waivers = waivers },
            Now.AddHours(random.Next(-3, 3)));
    }

    [Fact]
    public void Waived_or_unknown_never_counts_as_compliant() =>
        Property.ForAll(Generate, c =>
        {
            var result = ComplianceEvaluator.Evaluate(c.Instance, c.Policy, c.At);
            if (result.Status is ComplianceStatus.Waived or ComplianceStatus.Unknown)
                Assert.False(result.CountsAsCompliant);
        });

    [Fact]
    public void Unknown_observation_is_never_compliant_non_compliant_or_waived() =>
        Property.ForAll(Generate, c =>
        {
            var result = ComplianceEvaluator.Evaluate(c.Instance, c.Policy, c.At);
            if (c.Instance.Ifi.State == IfiState.Unknown)
                Assert.Contains(result.Status, new[] { ComplianceStatus.Unknown, ComplianceStatus.NotApplicable });
        });

    [Fact]
    public void Forbidden_instance_with_IFI_on_is_non_compliant_or_waived_never_compliant() =>
        Property.ForAll(Generate, c =>
        {
            var result = ComplianceEvaluator.Evaluate(c.Instance, c.Policy, c.At);
            if (result.Policy.Desired == DesiredState.Forbidden && c.Instance.Ifi.State == IfiState.Enabled)
                Assert.Equal(result.Waiver is null ? ComplianceStatus.NonCompliant : ComplianceStatus.Waived, result.Status);
        });

    [Fact]
    public void Azure_platforms_are_always_not_applicable() =>
        Property.ForAll(Generate, c =>
        {
            var result = ComplianceEvaluator.Evaluate(c.Instance, c.Policy, c.At);
            Assert.Equal(c.Instance.IsAzurePaas, result.Status == ComplianceStatus.NotApplicable
                && result.Policy.Source == PolicySource.Platform);
        });
}

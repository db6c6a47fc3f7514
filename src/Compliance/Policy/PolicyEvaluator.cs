using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Policy;

public static class PolicyEvaluator
{
    public static PolicyDecision Decide(PolicyDocument policy, InstanceFacts instance)
    {
        // The platform comes before the rules: a rule written for "Production" must not make an Azure SQL Database
        // non-compliant for something nobody can change there.
        if (instance.IsAzurePaas)
            return new PolicyDecision(DesiredState.NotApplicable, PolicySource.Platform, null);

        var rule = policy.Rules.FirstOrDefault(r => r.Matches(instance.Environment, instance.Tags.ToList(), instance.Owner));
        return rule is null
            ? new PolicyDecision(DesiredState.Required, PolicySource.Default, null)
            : new PolicyDecision(rule.Desired, PolicySource.Rule, rule.Name);
    }

    /// <summary>The active waiver for the instance; of several, the one that lasts longest.</summary>
    public static Waiver? ActiveWaiver(PolicyDocument policy, long instanceId, DateTimeOffset now) =>
        policy.Waivers
            .Where(w => w.InstanceId == instanceId && w.IsActiveAt(now))
            .OrderByDescending(w => w.ExpiresAt)
            .FirstOrDefault();
}

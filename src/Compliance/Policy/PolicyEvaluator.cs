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

        // A rule whose selector reads an unknown fact neither matches nor is passed over in silence: it is kept, and
        // the decision is undecided only if it would have decided otherwise than the rules that could be evaluated.
        var unevaluated = new List<UnevaluatedRule>();
        PolicyRule? decided = null;
        foreach (var rule in policy.Rules)
        {
            var match = rule.Match(instance);
            if (match.Kind == RuleMatchKind.Yes)
            {
                decided = rule;
                break;
            }
            if (match.Kind == RuleMatchKind.Undecided)
                unevaluated.Add(new UnevaluatedRule(rule.Name, rule.Desired, match.Unevaluated));
        }

        var decision = decided is null
            ? new PolicyDecision(DesiredState.Required, PolicySource.Default, null)
            : new PolicyDecision(decided.Desired, PolicySource.Rule, decided.Name);
        if (unevaluated.Count == 0) return decision;
        return unevaluated.Any(u => u.Desired != decision.Desired)
            ? decision with { Source = PolicySource.Undecided, RuleName = null, Unevaluated = unevaluated }
            : decision with { Unevaluated = unevaluated };
    }

    /// <summary>The active waiver for the instance; of several, the one that lasts longest.</summary>
    public static Waiver? ActiveWaiver(PolicyDocument policy, long instanceId, DateTimeOffset now) =>
        policy.Waivers
            .Where(w => w.InstanceId == instanceId && w.IsActiveAt(now))
            .OrderByDescending(w => w.ExpiresAt)
            .FirstOrDefault();
}

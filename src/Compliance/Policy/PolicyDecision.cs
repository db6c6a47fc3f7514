namespace IfiDashboard.Compliance.Policy;

/// <summary>The desired state for one instance and where it came from.</summary>
/// <param name="Unevaluated">
/// Rules before the deciding one whose host selectors could not be evaluated (a fact is unknown), each with what it
/// lacks. When one of them would decide otherwise, <see cref="Source"/> is <see cref="PolicySource.Undecided"/>.
/// </param>
public sealed record PolicyDecision(DesiredState Desired, PolicySource Source, string? RuleName)
{
    public IReadOnlyList<UnevaluatedRule> Unevaluated { get; init; } = [];

    /// <summary>How a sentence names the decision's origin: "policy 'prod'" or "the default policy".</summary>
    public string Origin => Source switch
    {
        PolicySource.Rule => $"policy '{RuleName}'",
        PolicySource.Platform => "the platform",
        PolicySource.Undecided => $"no rule yet: policy '{Unevaluated[0].RuleName}' could not be evaluated",
        _ => "the default policy",
    };
}

/// <summary>A rule that might match an instance, had its selectors' facts been read.</summary>
public sealed record UnevaluatedRule(string RuleName, DesiredState Desired, IReadOnlyList<UnevaluatedSelector> Selectors)
{
    /// <summary>"policy 'Linux hosts' selects by platform, which is unknown (no good poll has read ...)".</summary>
    public string Sentence => $"policy '{RuleName}' selects by " +
                              string.Join(" and ", Selectors.Select(s => $"{s.Selector}, which is unknown ({s.Reason})"));
}

public enum PolicySource
{
    /// <summary>No rule matched: IFI is required.</summary>
    Default,
    Rule,

    /// <summary>Azure SQL Database or Managed Instance, whatever the rules say.</summary>
    Platform,

    /// <summary>
    /// A rule whose selector could not be evaluated would decide otherwise than the rules that could: the status is
    /// Unknown until a poll reads the fact. <see cref="PolicyDecision.Desired"/> is then what the rules that could be
    /// evaluated decide.
    /// </summary>
    Undecided,
}

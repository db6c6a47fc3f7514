namespace IfiDashboard.Compliance.Policy;

/// <summary>The desired state for one instance and where it came from.</summary>
public sealed record PolicyDecision(DesiredState Desired, PolicySource Source, string? RuleName)
{
    /// <summary>How a sentence names the decision's origin: "policy 'prod'" or "the default policy".</summary>
    public string Origin => Source switch
    {
        PolicySource.Rule => $"policy '{RuleName}'",
        PolicySource.Platform => "the platform",
        _ => "the default policy",
    };
}

public enum PolicySource
{
    /// <summary>No rule matched: IFI is required.</summary>
    Default,
    Rule,

    /// <summary>Azure SQL Database or Managed Instance, whatever the rules say.</summary>
    Platform,
}

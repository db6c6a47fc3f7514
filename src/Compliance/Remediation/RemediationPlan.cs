namespace IfiDashboard.Compliance.Remediation;

public enum RemediationKind
{
    NothingToDo,
    GrantPrivilege,
    RemoveTraceFlag,
    RevokePrivilege,
    LinuxCheck,
    PatchBuild,
    GrantCollectorPermission,
    RestoreConnectivity,
    WaitForFirstPoll,
    TdeDatabase,
    /// <summary>A policy rule's selector reads a fact no poll has read: the desired state is undecided.</summary>
    ReviewPolicy,
}

/// <summary>What a DBA should do, in order. Steps are plain text with the exact names and statements to use.</summary>
public sealed record RemediationPlan(RemediationKind Kind, string Title, IReadOnlyList<string> Steps)
{
    /// <summary>The Windows privilege change behind a grant or revoke plan, which the remediation pack scripts.</summary>
    public PrivilegeChange? Change { get; init; }
}

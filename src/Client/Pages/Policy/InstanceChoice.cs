using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>An active instance in the waiver form's picker, labelled with its status when the assessment has it.</summary>
public sealed record InstanceChoice(long Id, string Name, ComplianceStatus? Status)
{
    public string Label => Status is { } status ? $"{Name} — {StatusText.Label(status)}" : Name;
}

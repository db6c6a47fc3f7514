using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Client.Components;

/// <summary>Names and CSS classes of compliance statuses, shared by badges, tiles, the grid and the CSV.</summary>
public static class StatusText
{
    /// <summary>Worst first, the order tiles and legends use, so the eye lands on what needs work.</summary>
    public static readonly ComplianceStatus[] Ordered =
    [
        ComplianceStatus.NonCompliant, ComplianceStatus.Unknown, ComplianceStatus.Waived,
        ComplianceStatus.Compliant, ComplianceStatus.NotApplicable,
    ];

    public static string Label(ComplianceStatus status) => status switch
    {
        ComplianceStatus.Compliant => "Compliant",
        ComplianceStatus.NonCompliant => "Non-compliant",
        ComplianceStatus.Waived => "Waived",
        ComplianceStatus.Unknown => "Unknown",
        _ => "Not applicable",
    };

    public static string Css(ComplianceStatus status) => status switch
    {
        ComplianceStatus.Compliant => "st-ok",
        ComplianceStatus.NonCompliant => "st-bad",
        ComplianceStatus.Waived => "st-waived",
        ComplianceStatus.Unknown => "st-unknown",
        _ => "st-na",
    };

    public static string Desired(DesiredState desired) => desired switch
    {
        DesiredState.Required => "IFI required",
        DesiredState.Forbidden => "IFI forbidden",
        _ => "Not applicable",
    };

    /// <summary>The grid's narrow form; <see cref="Desired"/> goes in its tooltip.</summary>
    public static string DesiredShort(DesiredState desired) => desired switch
    {
        DesiredState.Required => "requires IFI",
        DesiredState.Forbidden => "forbids IFI",
        _ => "n/a",
    };
}

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>
/// A waivers table form: each row's Revoke (or Reject, for a pending waiver) and Approve button posts its waiver id as
/// the button's value, to the revoke and the approve form respectively.
/// </summary>
public sealed class WaiverDecision
{
    public string? WaiverId { get; set; }
}

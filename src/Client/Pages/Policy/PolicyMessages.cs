using System.Globalization;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>
/// What the policy page says after a change (Post/Redirect/Get). The redirect carries only a word and numbers: the
/// instance's name is looked up by its id when the page loads, so a crafted link cannot put its own words on the page.
/// </summary>
public static class PolicyMessages
{
    public static string Saved(int version) => string.Create(CultureInfo.InvariantCulture, $"policy?done=saved&version={version}");
    public static string Granted(long instanceId) => Url("granted", instanceId);
    public static string AwaitingApproval(long instanceId) => Url("awaiting-approval", instanceId);
    public static string Approved(long instanceId) => Url("approved", instanceId);
    public static string Revoked(long instanceId) => Url("revoked", instanceId);

    static string Url(string done, long instanceId) => string.Create(CultureInfo.InvariantCulture, $"policy?done={done}&instance={instanceId}");

    /// <param name="instance">The instance's registered name; null when the id names none ("the instance").</param>
    public static string? For(string? done, int? version, string? instance)
    {
        var name = instance ?? "the instance";
        return done switch
        {
            "saved" => $"Rules saved as policy version {version}. Statuses are re-assessed against it within seconds.",
            "granted" => $"Waiver granted for {name}. Its status becomes Waived if it is non-compliant.",
            "awaiting-approval" => $"Waiver for {name} granted; it counts once someone else approves it (four-eyes).",
            "approved" => $"Waiver for {name} approved. Its status becomes Waived if it is non-compliant.",
            "revoked" => $"Waiver for {name} revoked.",
            _ => null,
        };
    }
}

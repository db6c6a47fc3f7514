namespace IfiDashboard.Client.Pages.Policy;

/// <summary>What the page says after a change, from the query string the redirect carries (Post/Redirect/Get).</summary>
public static class PolicyMessages
{
    public static string Saved(int version) => $"policy?done=saved&version={version}";
    public static string Granted(string instance) => $"policy?done=granted&instance={Uri.EscapeDataString(instance)}";
    public static string AwaitingApproval(string instance) => $"policy?done=awaiting-approval&instance={Uri.EscapeDataString(instance)}";
    public static string Approved(string instance) => $"policy?done=approved&instance={Uri.EscapeDataString(instance)}";
    public static string Revoked(string instance) => $"policy?done=revoked&instance={Uri.EscapeDataString(instance)}";

    public static string? For(string? done, int? version, string? instance) => done switch
    {
        "saved" => $"Rules saved as policy version {version}. Statuses are re-assessed against it within seconds.",
        "granted" => $"Waiver granted for {instance}. Its status becomes Waived if it is non-compliant.",
        "awaiting-approval" => $"Waiver for {instance} granted; it counts once someone else approves it (four-eyes).",
        "approved" => $"Waiver for {instance} approved. Its status becomes Waived if it is non-compliant.",
        "revoked" => $"Waiver for {instance} revoked.",
        _ => null,
    };
}

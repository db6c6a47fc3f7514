namespace IfiDashboard.Client.Pages.Policy;

/// <summary>The waivers table's form: each row's Revoke button posts its waiver id as the button's value.</summary>
public sealed class RevokeRequest
{
    public string? WaiverId { get; set; }
}

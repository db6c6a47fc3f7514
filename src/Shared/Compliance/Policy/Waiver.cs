namespace IfiDashboard.Shared.Compliance.Policy;

/// <summary>A time-boxed exception for one instance: a non-compliant instance under an active waiver shows as Waived.</summary>
public sealed record Waiver
{
    public required long InstanceId { get; init; }
    public required string Reason { get; init; }
    public required string Author { get; init; }
    public required DateTimeOffset GrantedAt { get; init; }
    public required DateTimeOffset ExpiresAt { get; init; }

    /// <summary>Active from the moment it is granted up to, but not including, its expiry.</summary>
    public bool IsActiveAt(DateTimeOffset now) => GrantedAt <= now && now < ExpiresAt;
}

namespace IfiDashboard.Compliance.Policy;

/// <summary>A time-boxed exception for one instance: a non-compliant instance under an active waiver shows as Waived.</summary>
public sealed record Waiver
{
    public required long InstanceId { get; init; }
    public required string Reason { get; init; }
    /// <summary>The author's display name, as shown.</summary>
    public required string Author { get; init; }
    /// <summary>The author's identity (issuer and subject), which four-eyes compares; null for waivers granted before
    /// identities were recorded (store migration 0020).</summary>
    public string? AuthorIdentity { get; init; }
    public required DateTimeOffset GrantedAt { get; init; }
    public required DateTimeOffset ExpiresAt { get; init; }

    /// <summary>Granted while four-eyes approval was required: it counts only once someone else approves it.</summary>
    public bool NeedsApproval { get; init; }
    public string? ApprovedBy { get; init; }
    public string? ApprovedByIdentity { get; init; }
    public DateTimeOffset? ApprovedAt { get; init; }

    /// <summary>Waiting for a second person; it hides nothing meanwhile.</summary>
    public bool IsPendingApproval => NeedsApproval && ApprovedAt is null;

    /// <summary>
    /// Active from the moment it is granted (or, when it needs approval, approved) up to, but not including, its expiry.
    /// </summary>
    public bool IsActiveAt(DateTimeOffset now) =>
        GrantedAt <= now && now < ExpiresAt && (!NeedsApproval || ApprovedAt is { } approved && approved <= now);

    /// <summary>The first moment after <paramref name="now"/> at which <see cref="IsActiveAt"/> may answer otherwise; MaxValue if none.</summary>
    public DateTimeOffset NextChangeAfter(DateTimeOffset now)
    {
        var next = DateTimeOffset.MaxValue;
        foreach (var moment in (ReadOnlySpan<DateTimeOffset?>)[GrantedAt, ExpiresAt, ApprovedAt])
            if (moment > now && moment < next)
                next = moment.Value;
        return next;
    }
}

namespace IfiDashboard.Client.Pages.Audit;

/// <summary>What the audit page reads; the server implements it over the store's audit log.</summary>
public interface IAuditView
{
    Task<AuditPageData> ReadAsync(AuditQuery query, CancellationToken ct);
}

/// <summary>Exact actor and action, a time range [From, To), and the page below the entry <see cref="Before"/>.</summary>
public sealed record AuditQuery(string? Actor, string? Action, DateTimeOffset? From, DateTimeOffset? To, long? Before, int PageSize);

/// <summary>One entry; before and after are JSON text, never a secret.</summary>
public sealed record AuditItem(long Id, DateTimeOffset OccurredAt, string Actor, string? RemoteAddress, string Action,
    string? Target, string? Before, string? After)
{
    /// <summary>Who the actor is (<c>subject@issuer</c>), where <see cref="Actor"/> is only the name shown; null for
    /// the system, anonymous requests and entries written before identities were recorded.</summary>
    public string? ActorIdentity { get; init; }
}

/// <summary>A page of entries, newest first; <see cref="NextBefore"/> is set when older entries follow.</summary>
public sealed record AuditPageData(IReadOnlyList<AuditItem> Items, long? NextBefore, IReadOnlyList<string> Actions,
    IReadOnlyList<string> Actors);

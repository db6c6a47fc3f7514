using IfiDashboard.Shared.Security;

namespace IfiDashboard.Store.Audit;

/// <summary>
/// Who made a change and from which address, as the audit log records it: the display name shown, and the identity
/// (<c>subject@issuer</c>, <see cref="ChangeAuthor.Identity"/>) that tells people apart; null for the system and for
/// anonymous requests.
/// </summary>
public sealed record AuditActor(string Name, string? RemoteAddress, string? Identity = null)
{
    /// <summary>The server itself: demo seeding, background work, the command line.</summary>
    public static readonly AuditActor System = new("system", null);

    public static AuditActor Collector(string collectorName, string? remoteAddress) =>
        new($"collector {collectorName}", remoteAddress, ChangeAuthor.Identity(collectorName, "collector"));
}

namespace IfiDashboard.Server.Store.Audit;

/// <summary>Who made a change and from which address, as the audit log records it.</summary>
public sealed record AuditActor(string Name, string? RemoteAddress)
{
    /// <summary>The server itself: demo seeding, background work, the command line.</summary>
    public static readonly AuditActor System = new("system", null);

    public static AuditActor Collector(string collectorName, string? remoteAddress) => new($"collector {collectorName}", remoteAddress);
}

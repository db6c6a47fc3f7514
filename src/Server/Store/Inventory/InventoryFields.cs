using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Store.Inventory;

/// <summary>Comparisons over the fields a CMDB owns (everything but id, schedule and retirement).</summary>
public static class InventoryFields
{
    public static bool Same(InstanceRegistration a, InstanceRegistration b) =>
        string.Equals(a.Name, b.Name, StringComparison.Ordinal)
        && string.Equals(a.Environment, b.Environment, StringComparison.Ordinal)
        && string.Equals(a.Owner, b.Owner, StringComparison.Ordinal)
        && a.Tags.SequenceEqual(b.Tags, StringComparer.Ordinal)
        && a.PollIntervalSeconds == b.PollIntervalSeconds
        && !ReachChanged(a, b);

    /// <summary>How the collector connects changed: the instance is polled again right away.</summary>
    public static bool ReachChanged(InstanceRegistration a, InstanceRegistration b) =>
        !string.Equals(a.Host, b.Host, StringComparison.Ordinal)
        || a.Port != b.Port
        || !string.Equals(a.InstanceName, b.InstanceName, StringComparison.Ordinal)
        || a.Encrypt != b.Encrypt
        || a.TrustServerCertificate != b.TrustServerCertificate
        || !string.Equals(a.HostNameInCertificate, b.HostNameInCertificate, StringComparison.Ordinal)
        || !string.Equals(a.ServerCertificatePath, b.ServerCertificatePath, StringComparison.Ordinal)
        || !string.Equals(a.CredentialName, b.CredentialName, StringComparison.Ordinal);
}

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

    /// <summary>
    /// The server a registration reaches, for telling two registrations of one server apart from two servers: the host
    /// ignoring case and IPv6 brackets, and the port (1433 when neither port nor instance name is
    /// given) or the instance name ignoring case. Two names of one machine (an alias, its IP address) are not caught
    /// here: only the polled machine and instance name can tell those apart.
    /// </summary>
    public static string ServerKey(InstanceRegistration r)
    {
        var host = r.Host.Trim('[', ']').ToLowerInvariant();
        var endpoint = r.InstanceName is { Length: > 0 } instance
            ? "\\" + instance.ToUpperInvariant()
            : "," + (r.Port ?? DefaultPort).ToString(System.Globalization.CultureInfo.InvariantCulture);
        return host + endpoint;
    }

    /// <summary>How a person writes that server: <c>sql01.corp.example,1433</c> or <c>sql01.corp.example\REPORTING</c>.</summary>
    public static string ServerAddress(InstanceRegistration r) => r.InstanceName is { Length: > 0 } instance
        ? $"{r.Host}\\{instance}"
        : $"{r.Host},{r.Port ?? DefaultPort}";

    const int DefaultPort = 1433;
}

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
    /// given) or the instance name ignoring case.
    /// </summary>
    public static string ServerKey(InstanceRegistration r) => Key(r.Host.Trim('[', ']'), r);

    /// <summary>
    /// The active instance among <paramref name="others"/> that already reaches the server
    /// <paramref name="registration"/> would: by the address registered (<see cref="ServerKey"/>), or, once polled, by
    /// the machine and instance name the server reported (an IP address or alias registered first, then the machine's
    /// DNS name, or the other way round).
    /// </summary>
    public static InventoryRecord? SameServer(IEnumerable<InventoryRecord> others, InstanceRegistration registration)
    {
        var wanted = Addresses(registration).ToHashSet(StringComparer.Ordinal);
        return others.FirstOrDefault(o => KnownAs(o.Registration, o.PolledServerName).Any(wanted.Contains));
    }

    /// <summary>
    /// Active instances that reach a server an earlier registration (lower id) reaches, each with that registration:
    /// stores written before the inventory refused a second registration of one server, or two names of one machine
    /// that only its polls tell apart. Fleet figures leave them out, so no server counts twice.
    /// </summary>
    public static IReadOnlyDictionary<long, InstanceRegistration> Duplicates(IEnumerable<InstanceRegistration> active,
        Func<long, string?> polledServerName)
    {
        var first = new Dictionary<string, InstanceRegistration>(StringComparer.Ordinal);
        var duplicates = new Dictionary<long, InstanceRegistration>();
        foreach (var registration in active.OrderBy(r => r.Id))
        {
            var keys = KnownAs(registration, polledServerName(registration.Id)).ToList();
            if (keys.Select(first.GetValueOrDefault).FirstOrDefault(r => r is not null) is { } original)
                duplicates[registration.Id] = original;
            else
                foreach (var key in keys) first[key] = registration;
        }
        return duplicates;
    }

    /// <summary>The keys a registration asks for: its address, and its host's machine name (the first DNS label) with the same endpoint.</summary>
    internal static IEnumerable<string> Addresses(InstanceRegistration r)
    {
        yield return ServerKey(r);
        if (MachineOf(r.Host) is { } machine) yield return Key(machine, r);
    }

    /// <summary>
    /// The keys an active instance is known by: its address and, once polled, the server's name for itself
    /// (<c>MACHINE</c> or <c>MACHINE\INSTANCE</c>) on the endpoint it is registered with.
    /// </summary>
    internal static IEnumerable<string> KnownAs(InstanceRegistration r, string? polledServerName)
    {
        yield return ServerKey(r);
        if (string.IsNullOrWhiteSpace(polledServerName)) yield break;
        var parts = polledServerName.Split('\\', 2);
        yield return Key(parts[0], r);
        if (parts.Length == 2) yield return Key(parts[0], r with { Port = null, InstanceName = parts[1] });
    }

    /// <summary>A DNS name's first label, the machine's own name; null for an IP address.</summary>
    static string? MachineOf(string host) =>
        host.Contains(':') || host.All(c => char.IsAsciiDigit(c) || c == '.') || !host.Contains('.') ? null : host[..host.IndexOf('.')];

    static string Key(string host, InstanceRegistration r)
    {
        var endpoint = r.InstanceName is { Length: > 0 } instance
            ? "\\" + instance.ToUpperInvariant()
            : "," + (r.Port ?? DefaultPort).ToString(System.Globalization.CultureInfo.InvariantCulture);
        return host.ToLowerInvariant() + endpoint;
    }

    /// <summary>How a person writes that server: <c>sql01.corp.example,1433</c> or <c>sql01.corp.example\REPORTING</c>.</summary>
    public static string ServerAddress(InstanceRegistration r) => r.InstanceName is { Length: > 0 } instance
        ? $"{r.Host}\\{instance}"
        : $"{r.Host},{r.Port ?? DefaultPort}";

    const int DefaultPort = 1433;
}

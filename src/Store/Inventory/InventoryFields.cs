using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Store.Inventory;

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
    /// <paramref name="registration"/> would: by the address registered (<see cref="ServerKey"/>), by the machine
    /// name a DNS name starts with, or, once polled, by the machine and instance name the server reported (an IP
    /// address or alias registered first, then the machine's DNS name, or the other way round).
    /// </summary>
    public static InventoryRecord? SameServer(IEnumerable<InventoryRecord> others, InstanceRegistration registration)
    {
        var index = new ServerIndex<InventoryRecord>(o => o.Registration);
        foreach (var other in others) index.Add(other, other.PolledServerName);
        return index.Find(registration, null);
    }

    /// <summary>
    /// Which active registration holds a name (ignoring case) or a server: indexed once, and kept up to date as a
    /// batch registers its own, so each check costs the registration's own keys.
    /// </summary>
    public sealed class Holders
    {
        readonly Dictionary<string, InventoryRecord> _names = new(StringComparer.OrdinalIgnoreCase);
        readonly ServerIndex<InventoryRecord> _servers = new(r => r.Registration);

        public Holders(IEnumerable<InventoryRecord> active)
        {
            foreach (var record in active) Add(record);
        }

        public void Add(InventoryRecord record)
        {
            _names.TryAdd(record.Registration.Name, record);
            _servers.Add(record, record.PolledServerName);
        }

        public InventoryRecord? OfName(string name, long? exceptId) =>
            _names.TryGetValue(name, out var holder) && holder.Registration.Id != exceptId ? holder : null;

        public InventoryRecord? OfServer(InstanceRegistration registration, long? exceptId) => _servers.Find(registration, null, exceptId);
    }

    /// <summary>
    /// Registrations by the keys they reach their server by, so that finding the one a registration shares its server
    /// with costs its own few keys, not a pass over every registration (a sync or an import checks thousands).
    /// </summary>
    public sealed class ServerIndex<T>(Func<T, InstanceRegistration> registrationOf) where T : class
    {
        readonly Dictionary<string, List<T>> _byKey = new(StringComparer.Ordinal);

        public void Add(T item, string? polledServerName)
        {
            foreach (var key in Keys(registrationOf(item), polledServerName))
            {
                if (!_byKey.TryGetValue(key, out var list)) _byKey[key] = list = [];
                list.Add(item);
            }
        }

        /// <summary>The first added that reaches the server <paramref name="registration"/> reaches, other than <paramref name="exceptId"/>.</summary>
        public T? Find(InstanceRegistration registration, string? polledServerName, long? exceptId = null) =>
            Keys(registration, polledServerName).SelectMany(k => _byKey.GetValueOrDefault(k) ?? [])
                .FirstOrDefault(o => registrationOf(o) is var other && other.Id != exceptId && OneMachinePossible(other.Host, registration.Host));
    }

    /// <summary>
    /// Active instances that reach a server an earlier registration (lower id) reaches, by the same keys as
    /// <see cref="SameServer"/>, each with that registration: stores written before the inventory refused a second
    /// registration of one server, or two names of one machine that only its polls tell apart. Fleet figures leave
    /// them out, so no server counts twice.
    /// </summary>
    public static IReadOnlyDictionary<long, InstanceRegistration> Duplicates(IEnumerable<InstanceRegistration> active,
        Func<long, string?> polledServerName)
    {
        var index = new ServerIndex<InstanceRegistration>(r => r);
        var duplicates = new Dictionary<long, InstanceRegistration>();
        foreach (var registration in active.OrderBy(r => r.Id))
        {
            var polled = polledServerName(registration.Id);
            if (index.Find(registration, polled) is { } original)
                duplicates[registration.Id] = original;
            else
                index.Add(registration, polled);
        }
        return duplicates;
    }

    /// <summary>
    /// The keys a registration reaches its server by: its address; the machine name a DNS name starts with, on the
    /// same endpoint; and once polled, the server's name for itself (<c>MACHINE</c> or <c>MACHINE\INSTANCE</c>) on
    /// the endpoint it is registered with, and as <c>MACHINE\INSTANCE</c>.
    /// </summary>
    static IEnumerable<string> Keys(InstanceRegistration r, string? polledServerName)
    {
        yield return ServerKey(r);
        if (MachineOf(r.Host) is { } machine) yield return Key(machine, r);
        if (string.IsNullOrWhiteSpace(polledServerName)) yield break;
        var parts = polledServerName.Split('\\', 2);
        yield return Key(parts[0], r);
        if (parts.Length == 2) yield return Key(parts[0], r with { Port = null, InstanceName = parts[1] });
    }

    /// <summary>
    /// What every key of <paramref name="r"/> (<see cref="Keys"/>, without a polled name) is made of, lower case: the host
    /// without IPv6 brackets, the machine name a DNS name starts with (the host again when it has none), and the
    /// endpoint, an instance name or else a port.
    /// </summary>
    public static (string Host, string Machine, string? Instance, int? Port) KeyParts(InstanceRegistration r)
    {
        // Read before the rules are checked: a missing host finds no server's holders.
        var given = r.Host ?? "";
        var host = given.Trim('[', ']').ToLowerInvariant();
        return r.InstanceName is { Length: > 0 } instance
            ? (host, MachineOf(given)?.ToLowerInvariant() ?? host, instance.ToLowerInvariant(), null)
            : (host, MachineOf(given)?.ToLowerInvariant() ?? host, null, r.Port ?? DefaultPort);
    }

    /// <summary>
    /// Machine names are unique within a DNS domain only: <c>sql07.emea.bank</c> and <c>sql07.apac.bank</c> are two
    /// machines whatever their servers call themselves. An IP address or a bare name says nothing against it.
    /// </summary>
    static bool OneMachinePossible(string a, string b) =>
        DomainOf(a) is not { } first || DomainOf(b) is not { } second || string.Equals(first, second, StringComparison.OrdinalIgnoreCase);

    static string? DomainOf(string host) => MachineOf(host) is { } machine ? host[(machine.Length + 1)..] : null;

    /// <summary>A DNS name's first label, the machine's own name; null for an IP address or a bare name.</summary>
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

    public const int DefaultPort = 1433;
}

using System.Diagnostics.CodeAnalysis;
using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// The hosts and ports a credential (or the whole collector) may connect to: exact names, wildcards and CIDR ranges,
/// each optionally with a port or port range, matched against the host string and port an instance is registered
/// with. Names are never resolved: resolving, checking the address and then letting SqlClient resolve again would let
/// DNS answer differently the second time (rebinding), so a CIDR range only covers hosts registered as IP literals,
/// and a name only matches names.
/// </summary>
public sealed partial class HostAllowList
{
    /// <summary>SQL Server's default port, which an entry without a port allows (besides a named instance's SQL Browser lookup).</summary>
    public const int DefaultPort = 1433;

    readonly IReadOnlyList<Rule> _rules;

    HostAllowList(IReadOnlyList<string> entries, IReadOnlyList<Rule> rules) => (Entries, _rules) = (entries, rules);

    public IReadOnlyList<string> Entries { get; }
    public bool IsEmpty => _rules.Count == 0;
    public bool HasPorts => _rules.Any(rule => rule.FirstPort is not null);

    /// <summary>
    /// Entries: <c>sql01.corp.local</c> (exact), <c>*.prod.bank.local</c> (one label in that domain), <c>sql-*</c>
    /// (a label starting with "sql-"), <c>10.20.0.0/16</c> or <c>fd00::/8</c> (IP literals in the range), <c>10.1.2.3</c>;
    /// each optionally followed by <c>:1433</c> or <c>:1433-1434</c> (IPv6 in brackets: <c>[fd00::5]:1433</c>).
    /// </summary>
    /// <exception cref="FormatException">An entry is none of these; the message names it.</exception>
    public static HostAllowList Parse(IEnumerable<string?> entries)
    {
        var kept = new List<string>();
        var rules = new List<Rule>();
        foreach (var raw in entries)
        {
            var entry = raw?.Trim() ?? "";
            if (entry.Length == 0) continue;
            var (host, ports) = SplitPorts(entry);
            var (first, last) = ports is null ? ((int?)null, 0) : PortRange(entry, ports);
            Func<Host, bool> hostRule;
            try
            {
                hostRule = HostRule(host);
            }
            catch (FormatException e) when (host != entry)
            {
                throw new FormatException($"In '{entry}': {e.Message}", e);
            }
            rules.Add(new Rule(hostRule, first, last));
            kept.Add(entry);
        }
        return new HostAllowList(kept, rules);
    }

    public static bool TryParse(IEnumerable<string?> entries, [NotNullWhen(true)] out HostAllowList? allowList)
    {
        try
        {
            allowList = Parse(entries);
            return true;
        }
        catch (FormatException)
        {
            allowList = null;
            return false;
        }
    }

    /// <summary>
    /// Whether an entry names the host and allows the port. <paramref name="port"/> is the port the client will connect
    /// to, or null when SQL Browser tells it (a named instance registered without a port). An entry without a port
    /// allows <see cref="DefaultPort"/> and SQL Browser's answer only; one with a port or range allows exactly those,
    /// so never SQL Browser's answer, which is not known before connecting. False for any host that is not a plain DNS
    /// name or a canonical IP literal, whatever the entries.
    /// </summary>
    public bool Matches(string? host, int? port) =>
        Host.Parse(host) is { } parsed && _rules.Any(rule => rule.Allows(port) && rule.Host(parsed));

    /// <summary>The port the client connects to for a registration (null: SQL Browser decides, for a named instance).</summary>
    public static int? PortOf(int? registeredPort, string? instanceName) =>
        registeredPort ?? (string.IsNullOrEmpty(instanceName) ? DefaultPort : null);

    readonly record struct Rule(Func<Host, bool> Host, int? FirstPort, int LastPort)
    {
        public bool Allows(int? port) => FirstPort is { } first
            ? port is { } p && p >= first && p <= LastPort
            : port is null or DefaultPort;
    }

    /// <summary>"host", "host:ports", "[v6]", "[v6]:ports"; an IPv6 address or range without brackets has no port.</summary>
    static (string Host, string? Ports) SplitPorts(string entry)
    {
        if (entry.StartsWith('['))
        {
            var close = entry.IndexOf(']');
            var rest = close < 0 ? "?" : entry[(close + 1)..];
            if (close < 0 || !entry[1..close].Contains(':') || (rest.Length > 0 && rest[0] != ':'))
                throw new FormatException($"'{entry}' is not an allow-list entry: brackets hold an IPv6 address or range, " +
                                          "optionally followed by a port ('[fd00::5]:1433').");
            return (entry[1..close], rest.Length == 0 ? null : rest[1..]);
        }
        var colon = entry.IndexOf(':');
        return colon >= 0 && colon == entry.LastIndexOf(':') ? (entry[..colon], entry[(colon + 1)..]) : (entry, null);
    }

    static (int? First, int Last) PortRange(string entry, string ports)
    {
        var match = Ports().Match(ports);
        if (match.Success && int.TryParse(match.Groups[1].Value, out var first) &&
            int.TryParse(match.Groups[2].Success ? match.Groups[2].Value : match.Groups[1].Value, out var last) &&
            first is >= 1 and <= 65_535 && last is >= 1 and <= 65_535 && first <= last)
            return (first, last);
        throw new FormatException($"'{entry}' does not end in a port (1-65535) or a port range ('1433-1434', lowest first).");
    }

    static Func<Host, bool> HostRule(string entry)
    {
        if (entry.Contains('/'))
        {
            // A base address with host bits set (10.20.1.0/16) is refused rather than masked: /16 or /24 was meant?
            if (!IPNetwork.TryParse(entry, out var network) || !network.BaseAddress.Equals(IPAddress.Parse(entry[..entry.IndexOf('/')])))
                throw new FormatException($"'{entry}' is not a CIDR range (the address must be the network's first, e.g. 10.20.0.0/16).");
            return host => host.Address is { } address && address.AddressFamily == network.BaseAddress.AddressFamily
                                                      && network.Contains(address);
        }
        if (Host.Parse(entry) is { Address: { } literal })
            return host => literal.Equals(host.Address);
        if (!entry.Contains('*'))
        {
            if (Host.Parse(entry) is not { Name: { } exact })
                throw new FormatException($"'{entry}' is not a host name, an IP address, a wildcard or a CIDR range " +
                                          "(optionally followed by ':port' or ':first-last').");
            return host => host.Name == exact;
        }
        var labels = Normalize(entry).Split('.');
        if (!labels.All(l => WildcardLabel().IsMatch(l)) || labels.All(l => l == "*"))
            throw new FormatException($"'{entry}' is not a wildcard this collector accepts: '*' stands for a whole label " +
                                      "or ends one ('*.prod.bank.local', 'sql-*'), and at least one label is literal.");
        var pattern = new Regex("^" + string.Join(@"\.", labels.Select(LabelPattern)) + "$",
            RegexOptions.CultureInvariant | RegexOptions.NonBacktracking);
        return host => host.Name is { } name && pattern.IsMatch(name);
    }

    /// <summary>A '*' matches one or more characters of a single label, never a dot.</summary>
    static string LabelPattern(string label) => label.EndsWith('*')
        ? Regex.Escape(label[..^1]) + "[a-z0-9_-]+"
        : Regex.Escape(label);

    static string Normalize(string name) => (name.EndsWith('.') ? name[..^1] : name).ToLowerInvariant();

    [GeneratedRegex(@"^([0-9]{1,5})(?:-([0-9]{1,5}))?\z")]
    private static partial Regex Ports();

    [GeneratedRegex(@"^(\*|[a-z0-9_-]{1,62}\*|[a-z0-9_-]{1,63})$")]
    private static partial Regex WildcardLabel();

    [GeneratedRegex(@"^(?=.{1,253}$)[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$")]
    private static partial Regex DnsName();

    [GeneratedRegex(@"^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$")]
    private static partial Regex CanonicalIPv4();

    /// <summary>A host as registered: a lower-case DNS name without its trailing dot, or an IP address.</summary>
    readonly record struct Host(string? Name, IPAddress? Address)
    {
        public static Host? Parse(string? text)
        {
            var host = text?.Trim() ?? "";
            if (host.StartsWith('[') && host.EndsWith(']')) host = host[1..^1];
            if (host.Contains(':'))
            {
                // IPv6, without a zone (a zone names an interface of whichever machine reads it).
                if (host.Contains('%') || !IPAddress.TryParse(host, out var v6) || v6.AddressFamily != AddressFamily.InterNetworkV6)
                    return null;
                return new Host(null, v6.IsIPv4MappedToIPv6 ? v6.MapToIPv4() : v6);
            }
            if (CanonicalIPv4().IsMatch(host)) return new Host(null, IPAddress.Parse(host));
            var name = Normalize(host);
            // "127.1", "0x7f.1" or "2130706433" are IPv4 to a resolver: neither a name nor a literal we accept.
            if (!DnsName().IsMatch(name) || IPAddress.TryParse(name, out _) || name.Split('.').All(l => l.All(char.IsAsciiDigit)))
                return null;
            return new Host(name, null);
        }
    }
}

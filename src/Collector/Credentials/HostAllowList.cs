using System.Diagnostics.CodeAnalysis;
using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// The hosts a credential (or the whole collector) may connect to: exact names, wildcards and CIDR ranges, matched
/// against the host string an instance is registered with. Names are never resolved: resolving, checking the address
/// and then letting SqlClient resolve again would let DNS answer differently the second time (rebinding), so a CIDR
/// range only covers hosts registered as IP literals, and a name only matches names.
/// </summary>
public sealed partial class HostAllowList
{
    readonly IReadOnlyList<Func<Host, bool>> _rules;

    HostAllowList(IReadOnlyList<string> entries, IReadOnlyList<Func<Host, bool>> rules) => (Entries, _rules) = (entries, rules);

    public IReadOnlyList<string> Entries { get; }
    public bool IsEmpty => _rules.Count == 0;

    /// <summary>
    /// Entries: <c>sql01.corp.local</c> (exact), <c>*.prod.bank.local</c> (one label in that domain), <c>sql-*</c>
    /// (a label starting with "sql-"), <c>10.20.0.0/16</c> or <c>fd00::/8</c> (IP literals in the range), <c>10.1.2.3</c>.
    /// </summary>
    /// <exception cref="FormatException">An entry is none of these; the message names it.</exception>
    public static HostAllowList Parse(IEnumerable<string?> entries)
    {
        var kept = new List<string>();
        var rules = new List<Func<Host, bool>>();
        foreach (var raw in entries)
        {
            var entry = raw?.Trim() ?? "";
            if (entry.Length == 0) continue;
            rules.Add(Rule(entry));
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

    /// <summary>False for anything that is not a plain DNS name or a canonical IP literal, whatever the entries.</summary>
    public bool Matches(string? host) => Host.Parse(host) is { } parsed && _rules.Any(rule => rule(parsed));

    static Func<Host, bool> Rule(string entry)
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
                throw new FormatException($"'{entry}' is not a host name, an IP address, a wildcard or a CIDR range.");
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

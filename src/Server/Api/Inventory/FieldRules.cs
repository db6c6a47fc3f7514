using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>What the API accepts in identifying fields. Conservative sets: these values reach URLs, configuration
/// keys (credential names) and connection strings.</summary>
internal static partial class FieldRules
{
    public const int MaxNameLength = 128;
    public const int MaxTextLength = 128;
    public const int MaxTags = 32;
    public const int MaxTagLength = 64;
    public const int MaxHostLength = 253;

    /// <summary>Display names: letters, digits, inner spaces and <c>._-\:@#()+</c>, starting with a letter or digit.</summary>
    [GeneratedRegex(@"^[A-Za-z0-9](?:[A-Za-z0-9 ._\-\\:@#()+]{0,126}[A-Za-z0-9._\-\\:@#()+])?\z")]
    public static partial Regex Name();

    /// <summary>External keys appear in URLs: letters, digits and <c>._:-</c>.</summary>
    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}\z")]
    public static partial Regex ExternalKey();

    /// <summary>
    /// Credential names become configuration keys (<c>Credentials:&lt;name&gt;</c>) and so environment variable names
    /// (<c>Credentials__&lt;name&gt;__Password</c>), which a shell or systemd accepts only of letters, digits and '_'.
    /// </summary>
    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9_]{0,127}\z")]
    public static partial Regex CredentialName();

    /// <summary>SQL Server instance names: up to 16 letters, digits, '_' or '$', not starting with a digit.</summary>
    [GeneratedRegex(@"^[A-Za-z_][A-Za-z0-9_$]{0,15}\z")]
    public static partial Regex InstanceName();

    [GeneratedRegex(@"^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\z")]
    private static partial Regex DnsLabel();

    [GeneratedRegex(@"^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}\z")]
    private static partial Regex IPv4();

    /// <summary>A DNS name, a dotted-quad IPv4 address or an IPv6 address (brackets optional).</summary>
    public static bool IsPlausibleHost(string host)
    {
        if (host.Length is 0 or > MaxHostLength)
            return false;
        if (host.Contains(':'))
        {
            var bare = host.StartsWith('[') && host.EndsWith(']') ? host[1..^1] : host;
            return IPAddress.TryParse(bare, out var address) && address.AddressFamily == AddressFamily.InterNetworkV6;
        }
        if (host.All(c => char.IsAsciiDigit(c) || c == '.'))
            return IPv4().IsMatch(host);
        return host.Split('.').All(label => DnsLabel().IsMatch(label));
    }

    /// <summary>Free text (environment, owner, tags): no control characters.</summary>
    public static bool IsPlainText(string text) => !text.Any(char.IsControl);
}

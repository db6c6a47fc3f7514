using System.Net;
using System.Net.Sockets;
using System.Text.RegularExpressions;
using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Shared.Inventory;

/// <summary>A field of a registration that breaks its rule; <see cref="Item"/> is the tag's index for a bad tag.</summary>
public sealed record InstanceFieldError(string Field, string Message, int? Item = null)
{
    /// <summary>The field as a JSON path, as problem details name it: <c>tags[2]</c>.</summary>
    public string Path => Item is { } item ? $"{Field}[{item}]" : Field;
}

/// <summary>
/// The one rule set for a registered instance, applied by every path that writes one: the dashboard's form and Test
/// connection, the REST API's PUT and sync. Conservative character sets, because these values reach URLs,
/// configuration keys (credential names) and connection strings; lengths on every field; and no text that hides or
/// reorders characters (<see cref="TextRules.IsPlainText"/>). Field names are the API's (camelCase).
/// </summary>
public static partial class InstanceRules
{
    public const int MinPollSeconds = 30;
    public const int MaxPollSeconds = 86_400;
    public const int DefaultPollSeconds = 300;
    public const int MaxTags = 32;
    public const int MaxTagLength = 64;
    public const int MaxHostLength = 253;
    /// <summary>Windows' classic path limit: the collector may run on Windows, and a pin is a short path in practice.</summary>
    public const int MaxCertificatePathLength = 260;

    /// <summary>
    /// SQL Server instance names: up to 16 characters, the first a letter or '_', then letters, digits, '_' or '$'
    /// (SQL Server setup's rules, without the '&amp;' it also allows first, which connection strings mangle).
    /// </summary>
    [GeneratedRegex(@"^[A-Za-z_][A-Za-z0-9_$]{0,15}\z")]
    private static partial Regex InstanceName();

    /// <summary>
    /// Credential names become configuration keys (<c>Credentials:&lt;name&gt;</c>) and so environment variable names
    /// (<c>Credentials__&lt;name&gt;__Password</c>), which a shell or systemd accepts only of letters, digits and '_'.
    /// A '-' is still accepted because earlier releases registered names such as <c>fleet-reader</c> and CMDB syncs
    /// send them again; collectors read it as '_' (<see cref="CredentialConfigurationKey"/>).
    /// </summary>
    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9_-]{0,127}\z")]
    private static partial Regex CredentialName();

    [GeneratedRegex(@"^(?!-)[A-Za-z0-9_-]{1,63}(?<!-)\z")]
    private static partial Regex DnsLabel();

    [GeneratedRegex(@"^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}\z")]
    private static partial Regex IPv4();

    /// <summary>
    /// The configuration key a collector reads a credential from: the name with each '-' as '_', so that the login of
    /// an earlier release's <c>fleet-reader</c> is exported as <c>Credentials__fleet_reader__Password</c> like any other.
    /// </summary>
    public static string CredentialConfigurationKey(string credentialName) => credentialName.Replace('-', '_');

    /// <summary>Every broken rule, in field order; empty when the registration may be stored.</summary>
    public static IReadOnlyList<InstanceFieldError> Check(InstanceRegistration r)
    {
        var errors = new List<InstanceFieldError>();
        void Refuse(string field, string message, int? item = null) => errors.Add(new(field, message, item));

        if (string.IsNullOrEmpty(r.Name))
            Refuse("name", "Required.");
        else if (!TextRules.DisplayName().IsMatch(r.Name))
            Refuse("name", TextRules.DisplayNameRule);

        if (string.IsNullOrEmpty(r.Host))
            Refuse("host", "Required.");
        else if (!IsPlausibleHost(r.Host))
            Refuse("host", $"A DNS name, IPv4 or IPv6 address of at most {MaxHostLength} characters, without scheme, port or spaces.");

        if (r.Port is < 1 or > 65_535)
            Refuse("port", "A port from 1 to 65535, or none for the default port or the instance name.");
        if (r.InstanceName is not null && !InstanceName().IsMatch(r.InstanceName))
            Refuse("instanceName", "1–16 letters, digits, _ or $, not starting with a digit or $.");
        if (r.Port is not null && r.InstanceName is not null)
        {
            Refuse("port", "Give a port or an instance name, not both.");
            Refuse("instanceName", "Give a port or an instance name, not both.");
        }

        if (!TextRules.IsTrimmedPlainText(r.Environment ?? "", TextRules.MaxTextLength))
            Refuse("environment", $"1–{TextRules.MaxTextLength} characters without control, invisible or direction-changing characters or surrounding spaces.");
        if (r.Owner is not null && !TextRules.IsTrimmedPlainText(r.Owner, TextRules.MaxTextLength))
            Refuse("owner", $"Omit it, or give 1–{TextRules.MaxTextLength} characters without control, invisible or direction-changing characters or surrounding spaces.");
        CheckTags(r.Tags, Refuse);

        if (r.HostNameInCertificate is not null && (r.HostNameInCertificate.Contains(':') || !IsPlausibleHost(r.HostNameInCertificate)))
            Refuse("hostNameInCertificate", $"A DNS name of at most {MaxHostLength} characters.");
        if (r.ServerCertificatePath is not null && !IsLocalAbsolutePath(r.ServerCertificatePath))
            Refuse("serverCertificatePath", "Omit it, or give the absolute path of a certificate file on the collector's machine, in the folder " +
                                            "its credential names (Credentials:<name>:CertificateFolder), such as /etc/ifi/certs/sql01.pem or " +
                                            $@"C:\ifi\certs\sql01.cer: 1–{MaxCertificatePathLength} characters, without control or invisible characters, " +
                                            @"'..', a network share (\\host\share), a device or a URL.");
        if (r.CredentialName is not null && !CredentialName().IsMatch(r.CredentialName))
            Refuse("credentialName", "1–128 characters: letters, digits and _, starting with a letter or digit (it becomes part of environment variable names, Credentials__<name>__Password); a - of an earlier release's name is read as _.");
        if (r.PollIntervalSeconds is < MinPollSeconds or > MaxPollSeconds)
            Refuse("pollIntervalSeconds", $"Must be between {MinPollSeconds} and {MaxPollSeconds} seconds.");
        return errors;
    }

    static void CheckTags(IReadOnlyList<string> tags, Action<string, string, int?> refuse)
    {
        if (tags.Count > MaxTags)
        {
            refuse("tags", $"At most {MaxTags} tags.", null);
            return;
        }
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < tags.Count; i++)
        {
            if (!TextRules.IsTrimmedPlainText(tags[i] ?? "", MaxTagLength))
                refuse("tags", $"1–{MaxTagLength} characters without control, invisible or direction-changing characters or surrounding spaces.", i);
            else if (!seen.Add(tags[i]))
                refuse("tags", "Duplicate tag (tags compare ignoring case).", i);
        }
    }

    /// <summary>
    /// An absolute path on the machine that reads it, Unix (<c>/etc/ifi/certs/a.pem</c>) or Windows (<c>C:\ifi\a.cer</c>):
    /// never a network share (<c>\\host\share</c>, <c>//host/share</c>; opening one on Windows starts SMB authentication
    /// to that host), a device namespace (<c>\\.\</c>, <c>\\?\</c>), a URL, an alternate data stream, a relative path or
    /// a <c>..</c> that climbs out of the folder it names.
    /// </summary>
    public static bool IsLocalAbsolutePath(string path)
    {
        if (!TextRules.IsTrimmedPlainText(path, MaxCertificatePathLength))
            return false;
        var unix = path[0] == '/' && !path.StartsWith("//", StringComparison.Ordinal);
        var windows = WindowsDrivePath().IsMatch(path);
        if (!unix && !windows)
            return false;
        if (path.IndexOf(':', windows ? 2 : 0) >= 0)
            return false;
        return !path.Split('/', '\\').Any(segment => segment == "..");
    }

    [GeneratedRegex(@"^[A-Za-z]:[\\/]")]
    private static partial Regex WindowsDrivePath();

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
}

using System.Text.RegularExpressions;
using IfiDashboard.Shared.Editing;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Editing;

/// <summary>The field rules for a registration made in the dashboard (the REST API applies the same limits).</summary>
public static partial class RegistrationRules
{
    [GeneratedRegex(@"^[A-Za-z0-9_.\-\\$ ]{1,128}$")]
    private static partial Regex SafeName();

    [GeneratedRegex(@"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9\-.:\[\]]*[A-Za-z0-9\]])?$")]
    private static partial Regex HostName();

    [GeneratedRegex(@"^[A-Za-z0-9_.\-]{1,128}$")]
    private static partial Regex Identifier();

    /// <summary>Part of environment variable names (Credentials__&lt;name&gt;__Password): letters, digits and '_' only.</summary>
    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9_]{0,127}$")]
    private static partial Regex CredentialName();

    public static InventoryResult? Check(InstanceRegistration r)
    {
        if (!SafeName().IsMatch(r.Name ?? "")) return InventoryResult.Refused("name", "1 to 128 letters, digits, spaces and _ . - \\ $.");
        if (!HostName().IsMatch(r.Host ?? "")) return InventoryResult.Refused("host", "A DNS name or an IP address, without scheme or port.");
        if (r.Port is < 1 or > 65535) return InventoryResult.Refused("port", "A port from 1 to 65535.");
        if (r.Port is not null && !string.IsNullOrEmpty(r.InstanceName)) return InventoryResult.Refused("port", "Give a port or an instance name, not both.");
        if (r.InstanceName is { Length: > 0 } name && !Identifier().IsMatch(name)) return InventoryResult.Refused("instanceName", "Letters, digits and _ . - only.");
        if (r.CredentialName is { Length: > 0 } credential && !CredentialName().IsMatch(credential)) return InventoryResult.Refused("credentialName", "Letters, digits and _ only, starting with a letter or digit: the name becomes part of environment variable names (Credentials__<name>__Password).");
        if (r.PollIntervalSeconds is < 30 or > 86_400) return InventoryResult.Refused("pollIntervalSeconds", "Between 30 seconds and one day.");
        if (string.IsNullOrWhiteSpace(r.Environment) || r.Environment.Length > 128) return InventoryResult.Refused("environment", "1 to 128 characters.");
        if (r.Tags.Count > 32 || r.Tags.Any(t => string.IsNullOrWhiteSpace(t) || t.Length > 64)) return InventoryResult.Refused("tags", "Up to 32 tags of 1 to 64 characters.");
        return null;
    }
}

using IfiDashboard.Shared.Security;
using IfiDashboard.Store.Inventory;

namespace IfiDashboard.Server.Security;

/// <summary>What an API key may do. Scopes are independent: <c>admin</c> manages keys and implies nothing else.</summary>
public static class ApiScopes
{
    public const string Read = "read";
    public const string InventoryWrite = "inventory:write";
    public const string SnapshotIngest = "snapshot:ingest";
    /// <summary>Reads the audit log, which <c>read</c> does not: it names people and their addresses.</summary>
    public const string AuditRead = "audit:read";
    /// <summary>Previews remediation packs and reads their status: an Operator's view, so <c>read</c> does not include it.</summary>
    public const string RemediationRead = "remediation:read";
    /// <summary>Generates remediation packs, which records them and shows "remediation pending".</summary>
    public const string RemediationWrite = "remediation:write";
    /// <summary>Grants, approves and revokes waivers (and, with <c>admin</c>, saves policy rules): the policy page's changes.</summary>
    public const string PolicyWrite = "policy:write";
    public const string Admin = "admin";

    public static readonly IReadOnlyList<string> All = [Read, InventoryWrite, SnapshotIngest, AuditRead, RemediationRead, RemediationWrite, PolicyWrite, Admin];

    /// <summary>The claim type each of a key's scopes is carried in.</summary>
    public const string ClaimType = "scope";

    public static string PolicyName(string scope) => "api-scope:" + scope;

    /// <summary>The dashboard role that may do what the scope allows; none for the collectors' <c>snapshot:ingest</c>.</summary>
    public static string? RoleFor(string scope) => scope switch
    {
        Read => DashboardRoles.Viewer,
        InventoryWrite or RemediationRead or RemediationWrite or PolicyWrite => DashboardRoles.Operator,
        AuditRead or Admin => DashboardRoles.Administrator,
        _ => null,
    };

    public static bool IsKnown(string scope) => All.Contains(scope, StringComparer.Ordinal);
}

namespace IfiDashboard.Simulator.Engine;

/// <summary>Server permission checks against the scenario login's list; sysadmin and CONTROL SERVER imply them all.</summary>
internal static class Permissions
{
    public static bool HasAny(SessionContext session, params string[] permissions) =>
        session.Login.Permissions.Any(granted =>
            Is(granted, "sysadmin") || Is(granted, "CONTROL SERVER") || permissions.Any(p => Is(granted, p)));

    private static bool Is(string granted, string permission) =>
        string.Equals(granted.Trim(), permission, StringComparison.OrdinalIgnoreCase);
}

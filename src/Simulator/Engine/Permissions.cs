namespace IfiDashboard.Simulator.Engine;

/// <summary>Server permission checks against the scenario login's list; sysadmin and CONTROL SERVER imply them all.</summary>
internal static class Permissions
{
    public static bool HasAny(SessionContext session, params string[] permissions) =>
        session.Login.Permissions.Any(granted =>
            Is(granted, "sysadmin") || Is(granted, "CONTROL SERVER") || permissions.Any(p => Is(granted, p)));

    /// <summary>
    /// VIEW SERVER STATE before 2022, VIEW SERVER PERFORMANCE STATE from 2022 (the DMVs about the host: cluster nodes,
    /// volumes). As for the services DMV, the stricter reading of 2022 is modelled: only the new permission (or
    /// sysadmin, CONTROL SERVER) passes there. Null when granted, else the messages of the refusal.
    /// </summary>
    public static IReadOnlyList<Results.SqlMessage>? PerformanceState(SessionContext session)
    {
        var required = session.Profile.Major >= 16 ? "VIEW SERVER PERFORMANCE STATE" : "VIEW SERVER STATE";
        return HasAny(session, required) ? null : SqlErrors.PermissionDenied(required);
    }

    private static bool Is(string granted, string permission) =>
        string.Equals(granted.Trim(), permission, StringComparison.OrdinalIgnoreCase);
}

using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>The services an instance reports: engine, Agent, and on Windows Full-text (2016+) and Launchpad (2017+).</summary>
internal static class ServiceRows
{
    private const int Automatic = 2;
    private const int Manual = 3;
    private const int Running = 4;

    /// <summary>Full rows in dm_server_services column order, the IFI column last.</summary>
    public static IEnumerable<object?[]> For(SessionContext session)
    {
        var instance = session.Instance;
        var linux = ServerIdentity.IsLinux(instance);
        var major = session.Profile.Major;
        var suffix = instance.InstanceName ?? "MSSQLSERVER";
        var binn = $@"C:\Program Files\Microsoft SQL Server\MSSQL{major}.{suffix}\MSSQL\Binn\";
        var named = instance.InstanceName is null ? "" : "$" + instance.InstanceName;

        object?[] Row(string service, int startup, int processId, string account, string windowsCommand, bool ifi) =>
        [
            $"{service} ({suffix})",
            startup,
            startup == Automatic ? "Automatic" : "Manual",
            Running,
            "Running",
            processId,
            instance.LastStartupTime,
            // On Linux the DMV reports LocalSystem although the process runs as mssql (reference, section 1).
            linux ? "LocalSystem" : account,
            linux ? "/opt/mssql/bin/sqlservr" : windowsCommand,
            instance.ClusterNodes.Count > 0 ? "Y" : "N",
            instance.ClusterNodes.Count > 0 ? instance.ClusterNodes[0] : null,
            ifi ? "Y" : "N",
        ];

        yield return Row("SQL Server", Automatic, instance.ProcessId, instance.ServiceAccount,
            $"\"{binn}sqlservr.exe\" -s{suffix}", instance.IfiEnabled);
        yield return Row("SQL Server Agent", Automatic, instance.ProcessId + 16, instance.AgentServiceAccount,
            $"\"{binn}SQLAGENT.EXE\" -i {suffix}", ifi: false);

        if (linux)
        {
            yield break;
        }

        if (major >= 13)
        {
            yield return Row("SQL Full-text Filter Daemon Launcher", Manual, instance.ProcessId + 32,
                $@"NT Service\MSSQLFDLauncher{named}", $"\"{binn}fdlauncher.exe\" -s MSSQL{major}.{suffix}", ifi: false);
        }

        if (major >= 14)
        {
            yield return Row("SQL Server Launchpad", Automatic, instance.ProcessId + 48,
                $@"NT Service\MSSQLLaunchpad{named}", $"\"{binn}Launchpad.exe\" -launcher Launcher.dll", ifi: false);
        }
    }
}

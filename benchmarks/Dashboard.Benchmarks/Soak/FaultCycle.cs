using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>The six ways an instance fails in the field that the soak switches on and off, one kind a minute.</summary>
internal enum SoakFault { Refused, Hang, ResetMidResult, LoginFailed, PermissionLost, TraceDisabled }

/// <summary>
/// Switches faults on the demo fleet while the server polls it: each minute the previous kind is lifted and the next
/// is switched on for a third of the instances, a different third each time. Only instances the demo runs healthy
/// take part, so the demo's own faulty instances keep the faults it gives them, and lifting a fault restores exactly
/// the healthy defaults.
/// </summary>
internal sealed class FaultCycle
{
    // The permissions the collector's probes read server state with; without them its DMV queries fail with 297/300.
    static readonly string[] ServerStatePermissions = ["VIEW SERVER STATE", "VIEW SERVER PERFORMANCE STATE"];

    readonly FleetSimulator _fleet;
    readonly IReadOnlyList<string> _subjects;
    readonly ScenarioLogin _collectorLogin;
    List<string> _faulty = [];

    public FaultCycle(FleetSimulator fleet)
    {
        _fleet = fleet;
        _collectorLogin = fleet.Scenario.DefaultLogins[0];
        _subjects = fleet.Instances
            .Select(i => i.Scenario)
            .Where(IsHealthy)
            .Select(i => i.Name)
            .Order(StringComparer.Ordinal)
            .ToList();
    }

    public IReadOnlyList<string> Subjects => _subjects;
    public SoakFault? Current { get; private set; }
    public IReadOnlyList<string> Faulty => _faulty;
    /// <summary>How many instance-minutes each fault was on.</summary>
    public Dictionary<SoakFault, int> Switched { get; } = Enum.GetValues<SoakFault>().ToDictionary(f => f, _ => 0);

    static bool IsHealthy(ScenarioInstance i) =>
        i.Faults is { RefuseConnections: false, HangInPreLogin: false, ResetMidResult: false, ErrorNumber: 0, QueryDelayMs: 0 }
        && i.Logins.Count == 0 && i.DefaultTrace.Enabled
        // Azure SQL Database and Managed Instance have no default trace and other permissions to lose.
        && i.Profile is not ("azure-sql-db" or "managed-instance");

    /// <summary>Lifts the fault of the minute before and switches on minute <paramref name="minute"/>'s.</summary>
    public void Advance(int minute)
    {
        Clear();
        var fault = (SoakFault)(minute % Enum.GetValues<SoakFault>().Length);
        _faulty = _subjects.Where((_, index) => (index + minute) % 3 == 0).ToList();
        foreach (var name in _faulty) _fleet.Update(name, instance => SwitchOn(instance, fault));
        Switched[fault] += _faulty.Count;
        Current = fault;
    }

    /// <summary>Every subject back to healthy.</summary>
    public void Clear()
    {
        foreach (var name in _faulty) _fleet.Update(name, SwitchOff);
        _faulty = [];
        Current = null;
    }

    void SwitchOn(ScenarioInstance instance, SoakFault fault)
    {
        switch (fault)
        {
            case SoakFault.Refused: instance.Faults.RefuseConnections = true; break;
            case SoakFault.Hang: instance.Faults.HangInPreLogin = true; break;
            case SoakFault.ResetMidResult: instance.Faults.ResetMidResult = true; break;
            // What SQL Server answers a wrong password or a disabled login with (the state is not told to clients).
            case SoakFault.LoginFailed: instance.Faults.ErrorNumber = 18456; break;
            // The instance's own login of the collector's name replaces the fleet's: same password, the DMV permissions revoked.
            case SoakFault.PermissionLost:
                instance.Logins =
                [
                    new ScenarioLogin
                    {
                        Name = _collectorLogin.Name, Password = _collectorLogin.Password,
                        Permissions = _collectorLogin.Permissions.Except(ServerStatePermissions, StringComparer.OrdinalIgnoreCase).ToList(),
                    },
                ];
                break;
            case SoakFault.TraceDisabled: instance.DefaultTrace.Enabled = false; break;
        }
    }

    static void SwitchOff(ScenarioInstance instance)
    {
        instance.Faults.RefuseConnections = false;
        instance.Faults.HangInPreLogin = false;
        instance.Faults.ResetMidResult = false;
        instance.Faults.ErrorNumber = 0;
        // A new list rather than a cleared one: connections read the logins while the harness switches them.
        instance.Logins = [];
        instance.DefaultTrace.Enabled = true;
    }
}

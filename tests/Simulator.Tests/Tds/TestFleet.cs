using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>Starts simulated instances on loopback and opens real SqlClient connections to them.</summary>
internal static class TestFleet
{
    public const string Login = "collector";
    public const string Password = "S3cret!pw";

    public static FleetSimulator Start(params ScenarioInstance[] instances) => FleetSimulator.Start(new Scenario
    {
        DefaultLogins = [new ScenarioLogin { Name = Login, Password = Password }],
        Instances = [.. instances],
    }, _ => { });

    public static FleetSimulator StartOne(string profile = "2019", Action<ScenarioInstance>? configure = null)
    {
        var instance = new ScenarioInstance { Name = "sql", Profile = profile };
        configure?.Invoke(instance);
        return Start(instance);
    }

    /// <summary>
    /// Pooling is off unless a test asks for it: a pooled connection would hide a handshake, and pools of
    /// instances that are gone would linger for the rest of the run.
    /// </summary>
    public static string ConnectionString(SimulatedInstance instance, string encrypt = "Mandatory", string extra = "Pooling=false") =>
        instance.ConnectionString(Login, Password, encrypt) + ";" + extra;

    public static async Task<SqlConnection> OpenAsync(SimulatedInstance instance, string encrypt = "Mandatory", string extra = "Pooling=false")
    {
        var connection = new SqlConnection(ConnectionString(instance, encrypt, extra));
        try
        {
            await connection.OpenAsync();
        }
        catch (SqlException e)
        {
            await connection.DisposeAsync();
            // The transcript says what the simulator saw, which a bare SqlException does not.
            throw new InvalidOperationException(
                $"Login to {instance.Name} failed: {e.Message}\n{string.Join("\n", instance.Transcript.Entries)}", e);
        }

        return connection;
    }
}

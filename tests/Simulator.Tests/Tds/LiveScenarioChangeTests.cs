using System.Net;
using System.Net.Sockets;
using Dapper;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>FleetSimulator.Update changes a running instance; the next connection or query sees the change.</summary>
public sealed class LiveScenarioChangeTests
{
    private const string IfiQuery =
        "SELECT instant_file_initialization_enabled FROM sys.dm_server_services WHERE process_id = 4242";

    [Fact]
    public async Task Ifi_taken_away_while_running_changes_the_next_answer_on_the_same_connection()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.IfiEnabled = true);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        Assert.Equal("Y", await connection.QuerySingleAsync<string>(IfiQuery));

        fleet.Update("sql", i => i.IfiEnabled = false);

        Assert.Equal("N", await connection.QuerySingleAsync<string>(IfiQuery));
    }

    [Fact]
    public async Task Refusing_connections_then_lifting_it_makes_the_same_port_refuse_then_answer_again()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.IfiEnabled = true);
        var instance = fleet["sql"];
        var port = instance.Port;
        await using (var before = await TestFleet.OpenAsync(instance))
        {
            Assert.Equal("Y", await before.QuerySingleAsync<string>(IfiQuery));
        }

        fleet.Update("sql", i => i.Faults.RefuseConnections = true);
        var refused = await ConnectErrorAsync(port);
        fleet.Update("sql", i => i.Faults.RefuseConnections = false);

        Assert.Equal(SocketError.ConnectionRefused, refused);
        Assert.Equal(port, instance.Port);
        await using var after = await TestFleet.OpenAsync(instance);
        Assert.Equal("Y", await after.QuerySingleAsync<string>(IfiQuery));
    }

    [Fact]
    public async Task Refusal_switched_on_and_straight_off_again_leaves_the_instance_listening()
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];

        for (var i = 0; i < 20; i++)
        {
            fleet.Update("sql", s => s.Faults.RefuseConnections = true);
            fleet.Update("sql", s => s.Faults.RefuseConnections = false);
        }

        await using var connection = await TestFleet.OpenAsync(instance);
        Assert.Equal(1, await connection.ExecuteScalarAsync<int>("SELECT 1"));
    }

    /// <summary>
    /// A raw TCP connect: SqlClient on Linux reports a refused port only after its whole connect timeout, as error 35
    /// around a SocketException that reads "Success", so it cannot tell refusal from other failures.
    /// </summary>
    private static async Task<SocketError> ConnectErrorAsync(int port)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            await socket.ConnectAsync(IPAddress.Loopback, port);
            return SocketError.Success;
        }
        catch (SocketException e)
        {
            return e.SocketErrorCode;
        }
    }
}

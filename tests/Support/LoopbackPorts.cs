using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace IfiDashboard.Tests.Support;

/// <summary>
/// Loopback ports for a server a test must name before it binds: a relay or dashboard that is down and then up on one
/// address, a process told its <c>--urls</c>. Where the server can bind port 0 and report its port, that is better.
/// </summary>
public static class LoopbackPorts
{
    /// <summary>
    /// The credential allow-list entry of test fleets: loopback on the unprivileged ports the simulator's and other
    /// listeners get from the system (an entry without a port allows 1433 only).
    /// </summary>
    public const string AllowListEntry = "127.0.0.1:1024-65535";

    const int LowestPicked = 20_000;

    /// <summary>
    /// A port free now, below the kernel's ephemeral range (<c>/proc/sys/net/ipv4/ip_local_port_range</c>), chosen at
    /// random. The kernel puts every socket bound to port 0 and every outgoing connection in the ephemeral range, so
    /// until the test binds this port only another test's pick can take it. A port taken from the ephemeral range
    /// (as before) was taken meanwhile by the test processes running beside it: one test's alert reached another
    /// test's relay.
    /// </summary>
    public static int Unassigned()
    {
        var ephemeralLow = EphemeralRangeLow();
        if (ephemeralLow <= LowestPicked + 1_000) return EphemeralFreePort();
        for (var attempt = 0; attempt < 100; attempt++)
        {
            var port = Random.Shared.Next(LowestPicked, ephemeralLow);
            if (IsFree(port)) return port;
        }
        return EphemeralFreePort();
    }

    static bool IsFree(int port)
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            probe.Bind(new IPEndPoint(IPAddress.Loopback, port));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    static int EphemeralFreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>The start of the ephemeral range; where it cannot be read (not Linux), 0, and ports come from it.</summary>
    static int EphemeralRangeLow()
    {
        try
        {
            var range = File.ReadAllText("/proc/sys/net/ipv4/ip_local_port_range").Split((char[])['\t', ' ', '\n'], StringSplitOptions.RemoveEmptyEntries);
            return int.Parse(range[0], CultureInfo.InvariantCulture);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return 0;
        }
    }
}

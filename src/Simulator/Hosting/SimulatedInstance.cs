using System.Net;
using System.Net.Sockets;
using IfiDashboard.Simulator.Engine;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Hosting;

/// <summary>One simulated instance listening on its own loopback port.</summary>
public sealed class SimulatedInstance : IAsyncDisposable
{
    readonly IQueryEngine _engine;
    readonly IReadOnlyList<ScenarioLogin> _defaultLogins;
    readonly CancellationTokenSource _stopping = new();
    readonly Lock _connectivity = new();
    Socket? _socket;
    bool _listening;
    Task _acceptLoop = Task.CompletedTask;
    int _accepted;
    int _disposed;

    internal SimulatedInstance(ScenarioInstance scenario, IReadOnlyList<ScenarioLogin> defaultLogins, IQueryEngine engine)
    {
        Scenario = scenario;
        Profile = VersionProfiles.Get(scenario.Profile);
        _defaultLogins = defaultLogins;
        _engine = engine;
    }

    /// <summary>The live description: tests and the scenario watcher change it while the instance runs.</summary>
    public ScenarioInstance Scenario { get; }
    public VersionProfile Profile { get; }
    public Transcript Transcript { get; } = new();
    public int Port { get; private set; }
    public string Name => Scenario.Name;

    internal Version ProductVersion => Version.Parse(Profile.ProductVersion);

    internal string ServerName =>
        (Scenario.MachineName ?? Scenario.Name.ToUpperInvariant()) + (Scenario.InstanceName is { } i ? "\\" + i : "");

    /// <summary>
    /// The login the client authenticates as. An instance's own login of a name replaces the scenario default of that
    /// name, so a scenario can give one instance another password or fewer permissions.
    /// </summary>
    internal ScenarioLogin? FindLogin(string name, string password) =>
        Find(name) is { Password: { } expected } login && expected == password ? login : null;

    /// <summary>The Windows login (no password) of a principal that integrated security authenticated.</summary>
    internal ScenarioLogin? FindWindowsLogin(string name) => Find(name) is { Password: null } login ? login : null;

    ScenarioLogin? Find(string name) =>
        Scenario.Logins.FirstOrDefault(l => string.Equals(l.Name, name, StringComparison.OrdinalIgnoreCase))
        ?? _defaultLogins.FirstOrDefault(l => string.Equals(l.Name, name, StringComparison.OrdinalIgnoreCase));

    internal void Start()
    {
        _socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _socket.Bind(new IPEndPoint(IPAddress.Loopback, Scenario.Port));
        Port = ((IPEndPoint)_socket.LocalEndPoint!).Port;
        // A bound socket that does not listen answers every connection attempt with a reset: "connection refused",
        // while keeping the port reserved for when the fault is lifted.
        if (!Scenario.Faults.RefuseConnections) Listen();
    }

    /// <summary>Applies a change to <see cref="ScenarioFaults.RefuseConnections"/> made while running.</summary>
    public void ApplyConnectivity()
    {
        lock (_connectivity)
        {
            // Decided on a flag of our own: the old accept loop may still be winding down right after a refusal, and
            // judging by it ignored a refusal lifted straight away, leaving the port refusing for good.
            if (Scenario.Faults.RefuseConnections != _listening) return;
            if (Scenario.Faults.RefuseConnections)
            {
                _listening = false;
                _socket?.Dispose();
                _socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
                _socket.Bind(new IPEndPoint(IPAddress.Loopback, Port));
            }
            else Listen();
        }
    }

    void Listen()
    {
        _socket!.Listen(512);
        _listening = true;
        var listening = _socket;
        _acceptLoop = Task.Run(() => AcceptLoopAsync(listening));
    }

    async Task AcceptLoopAsync(Socket listening)
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await listening.AcceptAsync(_stopping.Token);
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }
            client.NoDelay = true;
            if (Interlocked.Increment(ref _accepted) <= Scenario.Faults.ResetFirstConnections)
            {
                Transcript.Add(TranscriptKinds.Fault, "connection reset after accept");
                client.LingerState = new LingerOption(true, 0);
                client.Close();
                continue;
            }
            _ = Task.Run(() => new TdsConnection(client, this, _engine).RunAsync(_stopping.Token));
        }
    }

    public string ConnectionString(string login, string password, string encrypt = "Mandatory") =>
        $"Server=127.0.0.1,{Port};User ID={login};Password={password};Encrypt={encrypt};TrustServerCertificate=true";

    /// <summary>Stops listening. Safe to call more than once (a host stopping and then being disposed).</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 1) return;
        await _stopping.CancelAsync();
        _socket?.Dispose();
        try { await _acceptLoop; } catch (OperationCanceledException) { }
        _stopping.Dispose();
    }
}

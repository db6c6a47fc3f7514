using System.Net;
using System.Net.Sockets;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// A loopback TCP relay in front of a server: <see cref="Down"/> closes its listener and every relayed connection, so
/// a client sees what a server outage looks like on the network (refused connections, dropped ones), and
/// <see cref="Up"/> listens on the same port again. The server behind it keeps its state.
/// </summary>
internal sealed class SwitchableRelay : IAsyncDisposable
{
    readonly int _target;
    readonly List<TcpClient> _open = [];
    TcpListener? _listener;
    CancellationTokenSource _stop = new();
    Task _accepting = Task.CompletedTask;

    public SwitchableRelay(int port, int target)
    {
        Port = port;
        _target = target;
    }

    public int Port { get; }

    public void Up()
    {
        _stop = new CancellationTokenSource();
        _listener = new TcpListener(IPAddress.Loopback, Port);
        _listener.Server.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        _listener.Start();
        _accepting = AcceptAsync(_listener, _stop.Token);
    }

    public async Task DownAsync()
    {
        await _stop.CancelAsync();
        _listener?.Stop();
        lock (_open)
        {
            foreach (var client in _open) client.Dispose();
            _open.Clear();
        }
        try { await _accepting; } catch (OperationCanceledException) { } catch (SocketException) { } catch (ObjectDisposedException) { }
    }

    async Task AcceptAsync(TcpListener listener, CancellationToken stop)
    {
        while (!stop.IsCancellationRequested)
        {
            var inbound = await listener.AcceptTcpClientAsync(stop);
            var outbound = new TcpClient();
            await outbound.ConnectAsync(IPAddress.Loopback, _target, stop);
            lock (_open) _open.AddRange([inbound, outbound]);
            _ = PumpAsync(inbound, outbound);
            _ = PumpAsync(outbound, inbound);
        }
    }

    static async Task PumpAsync(TcpClient from, TcpClient to)
    {
        try
        {
            await from.GetStream().CopyToAsync(to.GetStream());
            to.Client.Shutdown(SocketShutdown.Send);
        }
        catch (Exception e) when (e is IOException or SocketException or ObjectDisposedException or InvalidOperationException)
        {
            // The relay went down or a side hung up: the other side sees the connection end.
            to.Dispose();
        }
    }

    public async ValueTask DisposeAsync() => await DownAsync();
}

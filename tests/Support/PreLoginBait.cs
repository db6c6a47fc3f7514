using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace IfiDashboard.Tests.Support;

/// <summary>
/// What an attacker would run to harvest the collector's passwords: a TCP listener that answers PRELOGIN with
/// ENCRYPT_NOT_SUP ([MS-TDS] 2.2.6.5), so a client that accepts that sends LOGIN7 (packet type 0x10) in clear.
/// It records every connection and every TDS packet type it receives, and closes a connection after LOGIN7.
/// </summary>
public sealed class PreLoginBait : IAsyncDisposable
{
    public const byte PreLoginPacket = 0x12;
    public const byte Login7Packet = 0x10;
    const byte TabularResultPacket = 0x04;
    const byte EncryptNotSupported = 0x02;

    readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    readonly CancellationTokenSource _stop = new();
    readonly ConcurrentQueue<Connection> _connections = new();
    readonly Task _acceptLoop;
    TaskCompletionSource _changed = NewSignal();

    public PreLoginBait()
    {
        _listener.Start();
        _acceptLoop = AcceptAsync();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Every packet type received, in order, over all connections.</summary>
    public IReadOnlyList<byte> PacketTypes => [.. _connections.SelectMany(c => c.PacketTypes)];

    public bool ReceivedLogin7 => PacketTypes.Contains(Login7Packet);

    /// <summary>
    /// Connects a marker client and waits until the listener has accepted it and every connection accepted before it
    /// has ended. Connections are accepted in arrival order, so afterwards <see cref="ClientConnections"/> is complete
    /// for everything that connected before this call, with nothing left in flight.
    /// </summary>
    public async Task SettleAsync()
    {
        using var marker = new TcpClient(AddressFamily.InterNetwork);
        await marker.ConnectAsync(IPAddress.Loopback, Port);
        var markerEndpoint = (IPEndPoint)marker.Client.LocalEndPoint!;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        while (true)
        {
            var changed = Volatile.Read(ref _changed);
            var accepted = _connections.ToArray();
            var markerIndex = Array.FindIndex(accepted, c => c.Remote.Equals(markerEndpoint));
            if (markerIndex >= 0 && accepted.Take(markerIndex).All(c => c.Ended.Task.IsCompleted))
            {
                accepted[markerIndex].IsMarker = true;
                return;
            }
            await changed.Task.WaitAsync(timeout.Token);
        }
    }

    static TaskCompletionSource NewSignal() => new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Wakes <see cref="SettleAsync"/> after a connection was accepted or ended.</summary>
    void Signal() => Interlocked.Exchange(ref _changed, NewSignal()).TrySetResult();

    /// <summary>Connections other than the markers of <see cref="SettleAsync"/>.</summary>
    public int ClientConnections => _connections.Count(c => !c.IsMarker);

    async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            Socket socket;
            try { socket = await _listener.AcceptSocketAsync(_stop.Token); }
            catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException) { return; }
            var connection = new Connection((IPEndPoint)socket.RemoteEndPoint!);
            _connections.Enqueue(connection);
            Signal();
            _ = ServeAsync(socket, connection);
        }
    }

    async Task ServeAsync(Socket socket, Connection connection)
    {
        try
        {
            await using var stream = new NetworkStream(socket, ownsSocket: true);
            var header = new byte[8];
            while (await ReadExactlyOrEndAsync(stream, header))
            {
                var length = BinaryPrimitives.ReadUInt16BigEndian(header.AsSpan(2));
                if (length < 8) return;
                var payload = new byte[length - 8];
                if (!await ReadExactlyOrEndAsync(stream, payload)) return;
                connection.PacketTypes.Enqueue(header[0]);
                if (header[0] == Login7Packet) return;
                if (header[0] == PreLoginPacket)
                    await stream.WriteAsync(Packet(TabularResultPacket, PreLoginResponse()), _stop.Token);
            }
        }
        catch (Exception e) when (e is IOException or SocketException or OperationCanceledException) { }
        finally
        {
            connection.Ended.TrySetResult();
            Signal();
        }
    }

    static async Task<bool> ReadExactlyOrEndAsync(Stream stream, byte[] buffer)
    {
        try
        {
            await stream.ReadExactlyAsync(buffer);
            return true;
        }
        catch (EndOfStreamException)
        {
            return false;
        }
    }

    /// <summary>
    /// VERSION (16.0.1000), ENCRYPTION = ENCRYPT_NOT_SUP, INSTOPT (0: matched), THREADID (empty from a server) and
    /// MARS off: option tokens with big-endian offset and length, the terminator 0xFF, then the data.
    /// </summary>
    static byte[] PreLoginResponse()
    {
        (byte Token, byte[] Data)[] options =
        [
            (0x00, [16, 0, 0x03, 0xE8, 0, 0]),
            (0x01, [EncryptNotSupported]),
            (0x02, [0]),
            (0x03, []),
            (0x04, [0]),
        ];
        var payload = new List<byte>();
        var offset = options.Length * 5 + 1;
        foreach (var (token, data) in options)
        {
            payload.Add(token);
            payload.AddRange([(byte)(offset >> 8), (byte)offset, (byte)(data.Length >> 8), (byte)data.Length]);
            offset += data.Length;
        }
        payload.Add(0xFF);
        foreach (var (_, data) in options) payload.AddRange(data);
        return [.. payload];
    }

    /// <summary>A single TDS packet: type, status EOM, big-endian length including the header, SPID 0, packet 1, window 0.</summary>
    static byte[] Packet(byte type, byte[] payload)
    {
        var packet = new byte[8 + payload.Length];
        packet[0] = type;
        packet[1] = 0x01;
        BinaryPrimitives.WriteUInt16BigEndian(packet.AsSpan(2), (ushort)packet.Length);
        packet[6] = 1;
        payload.CopyTo(packet, 8);
        return packet;
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _acceptLoop;
        _stop.Dispose();
    }

    sealed class Connection(IPEndPoint remote)
    {
        public IPEndPoint Remote { get; } = remote;
        public ConcurrentQueue<byte> PacketTypes { get; } = new();
        public TaskCompletionSource Ended { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public volatile bool IsMarker;
    }
}

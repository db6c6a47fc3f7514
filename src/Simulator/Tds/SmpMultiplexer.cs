using System.Buffers.Binary;
using System.Threading.Channels;

namespace IfiDashboard.Simulator.Tds;

/// <summary>
/// The Session Multiplex Protocol ([MC-SMP]) a MARS connection speaks after login: each session opened with SYN gets
/// its own TDS request loop over a stream of its DATA packets. Every packet has a 16-byte little-endian header (SMID
/// 0x53, FLAGS, SID, LENGTH, SEQNUM, WNDW); a sender sends DATA only up to the peer's window (WNDW), and the receiver
/// widens its own window with each DATA or ACK it sends ([MC-SMP] 2.2.1, 3.1.5).
/// </summary>
internal sealed class SmpMultiplexer(Stream connection, Func<ushort, Stream, CancellationToken, Task> serveSession)
{
    const byte Smid = 0x53, Syn = 0x01, Ack = 0x02, Fin = 0x04, Data = 0x08;
    const int HeaderLength = 16;
    /// <summary>DATA packets the simulator accepts beyond the last one received.</summary>
    const uint ReceiveWindow = 4;

    readonly SemaphoreSlim _writeLock = new(1, 1);
    readonly Dictionary<ushort, Session> _sessions = [];

    public async Task RunAsync(CancellationToken ct)
    {
        var served = new List<Task>();
        try
        {
            var header = new byte[HeaderLength];
            while (true)
            {
                if (!await ReadHeaderAsync(header, ct)) return;
                if (header[0] != Smid) throw new TdsProtocolException($"Expected an SMP packet (0x53), got 0x{header[0]:X2}.");
                var flags = header[1];
                var sid = BinaryPrimitives.ReadUInt16LittleEndian(header.AsSpan(2));
                var length = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(4));
                var sequence = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(8));
                var window = BinaryPrimitives.ReadUInt32LittleEndian(header.AsSpan(12));
                if (length < HeaderLength) throw new TdsProtocolException($"SMP packet length {length} is shorter than its header.");
                var payload = new byte[length - HeaderLength];
                await connection.ReadExactlyAsync(payload, ct);
                switch (flags)
                {
                    case Syn:
                        var session = new Session(this, sid, window);
                        _sessions[sid] = session;
                        served.Add(ServeAsync(session, ct));
                        break;
                    case Data when _sessions.TryGetValue(sid, out var receiver):
                        receiver.Received(sequence, window, payload);
                        // The new window goes back at once, so the client never waits on the simulator's consumption.
                        await receiver.SendAsync(Ack, ReadOnlyMemory<byte>.Empty, ct);
                        break;
                    case Ack when _sessions.TryGetValue(sid, out var acknowledged):
                        acknowledged.Widen(window);
                        break;
                    case Fin when _sessions.Remove(sid, out var finished):
                        finished.Inbound.Writer.TryComplete();
                        break;
                    default:
                        throw new TdsProtocolException($"SMP packet with flags 0x{flags:X2} for session {sid} is not expected.");
                }
            }
        }
        finally
        {
            foreach (var session in _sessions.Values) session.Inbound.Writer.TryComplete();
            await Task.WhenAll(served);
        }
    }

    async Task<bool> ReadHeaderAsync(byte[] header, CancellationToken ct)
    {
        var read = 0;
        while (read < header.Length)
        {
            var n = await connection.ReadAsync(header.AsMemory(read), ct);
            if (n == 0) return false;
            read += n;
        }
        return true;
    }

    async Task ServeAsync(Session session, CancellationToken ct)
    {
        await Task.Yield();
        try
        {
            await serveSession(session.Id, session.Stream, ct);
            await session.SendAsync(Fin, ReadOnlyMemory<byte>.Empty, ct);
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or ObjectDisposedException)
        {
            // The connection went away; the other sessions end with it.
        }
    }

    async Task WriteAsync(byte flags, ushort sid, uint sequence, uint window, ReadOnlyMemory<byte> payload, CancellationToken ct)
    {
        var packet = new byte[HeaderLength + payload.Length];
        packet[0] = Smid;
        packet[1] = flags;
        BinaryPrimitives.WriteUInt16LittleEndian(packet.AsSpan(2), sid);
        BinaryPrimitives.WriteUInt32LittleEndian(packet.AsSpan(4), (uint)packet.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(packet.AsSpan(8), sequence);
        BinaryPrimitives.WriteUInt32LittleEndian(packet.AsSpan(12), window);
        payload.Span.CopyTo(packet.AsSpan(HeaderLength));
        await _writeLock.WaitAsync(ct);
        try
        {
            await connection.WriteAsync(packet, ct);
            await connection.FlushAsync(ct);
        }
        finally
        {
            _writeLock.Release();
        }
    }

    sealed class Session(SmpMultiplexer owner, ushort sid, uint clientWindow)
    {
        public ushort Id => sid;

        readonly object _gate = new();
        uint _sent, _received, _sendWindow = clientWindow;
        TaskCompletionSource _widened = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public Channel<byte[]> Inbound { get; } = Channel.CreateUnbounded<byte[]>(new UnboundedChannelOptions { SingleReader = true });

        public Stream Stream => field ??= new SessionStream(this);

        uint Window => _received + ReceiveWindow;

        public void Received(uint sequence, uint window, byte[] payload)
        {
            _received = sequence;
            Widen(window);
            Inbound.Writer.TryWrite(payload);
        }

        public void Widen(uint window)
        {
            TaskCompletionSource widened;
            lock (_gate)
            {
                _sendWindow = window;
                widened = _widened;
                _widened = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            }
            widened.TrySetResult();
        }

        /// <summary>DATA waits for the client's window; ACK and FIN carry the current sequence number.</summary>
        public async Task SendAsync(byte flags, ReadOnlyMemory<byte> payload, CancellationToken ct)
        {
            if (flags != Data)
            {
                await owner.WriteAsync(flags, sid, _sent, Window, payload, ct);
                return;
            }
            while (true)
            {
                Task widened;
                lock (_gate)
                {
                    if (unchecked((int)(_sendWindow - (_sent + 1))) >= 0)
                    {
                        _sent++;
                        break;
                    }
                    widened = _widened.Task;
                }
                await widened.WaitAsync(ct);
            }
            await owner.WriteAsync(Data, sid, _sent, Window, payload, ct);
        }
    }

    /// <summary>One session's TDS byte stream: reads its DATA payloads in order, writes each buffer as one DATA packet.</summary>
    sealed class SessionStream(Session session) : Stream
    {
        ReadOnlyMemory<byte> _current;

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
        {
            while (_current.IsEmpty)
            {
                if (!await session.Inbound.Reader.WaitToReadAsync(cancellationToken)) return 0;
                if (session.Inbound.Reader.TryRead(out var next)) _current = next;
            }
            var n = Math.Min(buffer.Length, _current.Length);
            _current[..n].CopyTo(buffer);
            _current = _current[n..];
            return n;
        }

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) =>
            new(session.SendAsync(Data, buffer.ToArray(), cancellationToken));

        public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override int Read(byte[] buffer, int offset, int count) => ReadAsync(buffer, offset, count).GetAwaiter().GetResult();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => WriteAsync(buffer, offset, count).GetAwaiter().GetResult();
    }
}

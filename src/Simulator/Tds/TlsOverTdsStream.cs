using System.Buffers.Binary;

namespace IfiDashboard.Simulator.Tds;

/// <summary>
/// The stream under the server's SslStream for TLS negotiated in PRELOGIN: during the handshake every TLS record
/// travels inside PRELOGIN (0x12) packets; once the handshake is done, TLS records go on the socket as they are.
/// </summary>
internal sealed class TlsOverTdsStream(Stream inner) : Stream
{
    readonly byte[] _header = new byte[TdsTransport.HeaderLength];
    int _remainingInPacket;

    public bool HandshakeComplete { get; set; }

    public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (HandshakeComplete) return await inner.ReadAsync(buffer, cancellationToken);
        if (_remainingInPacket == 0)
        {
            await inner.ReadExactlyAsync(_header, cancellationToken);
            if (_header[0] != TdsPacketType.PreLogin)
                throw new TdsProtocolException($"Expected a PRELOGIN packet carrying TLS, got type 0x{_header[0]:X2}.");
            _remainingInPacket = BinaryPrimitives.ReadUInt16BigEndian(_header.AsSpan(2)) - TdsTransport.HeaderLength;
        }
        // SslStream issues zero-byte reads to wait for data: answer once a packet has begun, as a socket would.
        if (buffer.Length == 0) return 0;
        var n = await inner.ReadAsync(buffer[..Math.Min(buffer.Length, _remainingInPacket)], cancellationToken);
        if (n == 0) throw new IOException("Connection closed during the TLS handshake.");
        _remainingInPacket -= n;
        return n;
    }

    public override async ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default)
    {
        if (HandshakeComplete)
        {
            await inner.WriteAsync(buffer, cancellationToken);
            return;
        }
        var transport = new TdsTransport(inner);
        await transport.WriteMessageAsync(TdsPacketType.PreLogin, buffer, cancellationToken);
    }

    public override int Read(byte[] buffer, int offset, int count) =>
        ReadAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();
    public override void Write(byte[] buffer, int offset, int count) =>
        WriteAsync(buffer.AsMemory(offset, count)).AsTask().GetAwaiter().GetResult();
    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();
    public override void Flush() => inner.Flush();
    public override Task FlushAsync(CancellationToken cancellationToken) => inner.FlushAsync(cancellationToken);

    public override bool CanRead => true;
    public override bool CanSeek => false;
    public override bool CanWrite => true;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
}

using System.Buffers.Binary;

namespace IfiDashboard.Simulator.Tds;

/// <summary>A whole client message: the packets of one request joined, with the first packet's header fields.</summary>
internal sealed record TdsMessage(byte Type, byte Status, byte[] Payload)
{
    public bool ResetsConnection => (Status & (TdsPacketStatus.ResetConnection | TdsPacketStatus.ResetConnectionSkipTransaction)) != 0;
}

/// <summary>
/// Reads and writes TDS packets on a stream that may be swapped (plain socket, TLS, login-only TLS).
/// Messages are split into packets of the negotiated size.
/// </summary>
internal sealed class TdsTransport(Stream stream)
{
    public const int HeaderLength = 8;
    public const int DefaultPacketSize = 4096;
    readonly byte[] _header = new byte[HeaderLength];

    public Stream Stream { get; set; } = stream;
    public int PacketSize { get; set; } = DefaultPacketSize;

    /// <returns>Null when the client closed the connection cleanly between messages.</returns>
    public async Task<TdsMessage?> ReadMessageAsync(CancellationToken cancellationToken)
    {
        using var payload = new MemoryStream();
        byte? type = null;
        byte status = 0;
        while (true)
        {
            if (!await ReadExactlyOrEndAsync(_header, cancellationToken))
            {
                if (type is null) return null;
                throw new TdsProtocolException("Connection closed in the middle of a message.");
            }
            var length = BinaryPrimitives.ReadUInt16BigEndian(_header.AsSpan(2, 2));
            if (length < HeaderLength)
                throw new TdsProtocolException($"Packet length {length} is shorter than its header.");
            type ??= _header[0];
            if (payload.Length == 0) status = _header[1];
            var body = new byte[length - HeaderLength];
            await Stream.ReadExactlyAsync(body, cancellationToken);
            payload.Write(body);
            if ((_header[1] & TdsPacketStatus.EndOfMessage) != 0)
                return new TdsMessage(type.Value, status, payload.ToArray());
        }
    }

    async Task<bool> ReadExactlyOrEndAsync(byte[] buffer, CancellationToken cancellationToken)
    {
        var read = 0;
        while (read < buffer.Length)
        {
            var n = await Stream.ReadAsync(buffer.AsMemory(read), cancellationToken);
            if (n == 0)
            {
                if (read == 0) return false;
                throw new TdsProtocolException("Connection closed inside a packet header.");
            }
            read += n;
        }
        return true;
    }

    public async Task WriteMessageAsync(byte type, ReadOnlyMemory<byte> payload, CancellationToken cancellationToken)
    {
        var maxBody = PacketSize - HeaderLength;
        byte packetId = 1;
        var offset = 0;
        do
        {
            var count = Math.Min(maxBody, payload.Length - offset);
            var last = offset + count >= payload.Length;
            var packet = new byte[HeaderLength + count];
            packet[0] = type;
            packet[1] = last ? TdsPacketStatus.EndOfMessage : (byte)0;
            BinaryPrimitives.WriteUInt16BigEndian(packet.AsSpan(2), (ushort)packet.Length);
            packet[6] = packetId++;
            payload.Span.Slice(offset, count).CopyTo(packet.AsSpan(HeaderLength));
            await Stream.WriteAsync(packet, cancellationToken);
            offset += count;
        } while (offset < payload.Length);
        await Stream.FlushAsync(cancellationToken);
    }
}

using System.Buffers.Binary;
using System.Text;

namespace IfiDashboard.Simulator.Tds;

/// <summary>Sequential reads over a client message; running past the end is a protocol error.</summary>
internal sealed class PayloadReader(ReadOnlyMemory<byte> payload)
{
    int _position;

    public int Position { get => _position; set => _position = value; }
    public int Remaining => payload.Length - _position;

    ReadOnlySpan<byte> Take(int count)
    {
        if (count < 0 || _position + count > payload.Length)
            throw new TdsProtocolException($"Message ends early: needed {count} bytes at offset {_position} of {payload.Length}.");
        var span = payload.Span.Slice(_position, count);
        _position += count;
        return span;
    }

    public byte Byte() => Take(1)[0];
    public ReadOnlySpan<byte> Bytes(int count) => Take(count);
    public ushort UInt16() => BinaryPrimitives.ReadUInt16LittleEndian(Take(2));
    public ushort UInt16BigEndian() => BinaryPrimitives.ReadUInt16BigEndian(Take(2));
    public short Int16() => BinaryPrimitives.ReadInt16LittleEndian(Take(2));
    public int Int32() => BinaryPrimitives.ReadInt32LittleEndian(Take(4));
    public uint UInt32() => BinaryPrimitives.ReadUInt32LittleEndian(Take(4));
    public long Int64() => BinaryPrimitives.ReadInt64LittleEndian(Take(8));
    public ulong UInt64() => BinaryPrimitives.ReadUInt64LittleEndian(Take(8));
    public string Ucs2(int characters) => Encoding.Unicode.GetString(Take(characters * 2));
    public string BVarChar() => Ucs2(Byte());
    public void Skip(int count) => Take(count);
}

/// <summary>The client sent something that is not valid TDS; the connection is closed.</summary>
public sealed class TdsProtocolException(string message) : Exception(message);

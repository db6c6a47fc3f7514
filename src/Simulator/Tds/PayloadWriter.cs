using System.Buffers.Binary;
using System.Text;

namespace IfiDashboard.Simulator.Tds;

/// <summary>A growable byte buffer with the little-endian and UCS-2 writes TDS tokens are made of.</summary>
internal sealed class PayloadWriter
{
    byte[] _buffer;
    int _length;

    public PayloadWriter(int capacity = 256) => _buffer = new byte[capacity];

    public int Length => _length;
    public ReadOnlyMemory<byte> Written => _buffer.AsMemory(0, _length);

    Span<byte> Take(int count)
    {
        if (_length + count > _buffer.Length)
            Array.Resize(ref _buffer, Math.Max(_buffer.Length * 2, _length + count));
        var span = _buffer.AsSpan(_length, count);
        _length += count;
        return span;
    }

    public void Byte(byte value) => Take(1)[0] = value;
    public void Bytes(ReadOnlySpan<byte> value) => value.CopyTo(Take(value.Length));
    public void UInt16(ushort value) => BinaryPrimitives.WriteUInt16LittleEndian(Take(2), value);
    public void Int16(short value) => BinaryPrimitives.WriteInt16LittleEndian(Take(2), value);
    public void UInt16BigEndian(ushort value) => BinaryPrimitives.WriteUInt16BigEndian(Take(2), value);
    public void Int32(int value) => BinaryPrimitives.WriteInt32LittleEndian(Take(4), value);
    public void UInt32(uint value) => BinaryPrimitives.WriteUInt32LittleEndian(Take(4), value);
    public void UInt32BigEndian(uint value) => BinaryPrimitives.WriteUInt32BigEndian(Take(4), value);
    public void Int64(long value) => BinaryPrimitives.WriteInt64LittleEndian(Take(8), value);
    public void UInt64(ulong value) => BinaryPrimitives.WriteUInt64LittleEndian(Take(8), value);

    public void Ucs2(string value)
    {
        var span = Take(Encoding.Unicode.GetByteCount(value));
        Encoding.Unicode.GetBytes(value, span);
    }

    /// <summary>B_VARCHAR: a one-byte character count, then UCS-2.</summary>
    public void BVarChar(string value)
    {
        Byte(checked((byte)value.Length));
        Ucs2(value);
    }

    /// <summary>US_VARCHAR: a two-byte character count, then UCS-2.</summary>
    public void UsVarChar(string value)
    {
        UInt16(checked((ushort)value.Length));
        Ucs2(value);
    }

    /// <summary>Patches a little-endian ushort written earlier (token lengths known only afterwards).</summary>
    public void PatchUInt16(int offset, ushort value) =>
        BinaryPrimitives.WriteUInt16LittleEndian(_buffer.AsSpan(offset, 2), value);

    public void Clear() => _length = 0;
}

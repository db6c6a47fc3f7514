using System.Numerics;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tds;

/// <summary>
/// TYPE_INFO and values on the wire. NOT NULL integer, bit and datetime columns use the fixed-length types and
/// nullable ones the N types, as SQL Server itself does ([MS-TDS] 2.2.5.4).
/// </summary>
internal static class ValueEncoder
{
    const byte Int1 = 0x30, Bit = 0x32, Int2 = 0x34, Int4 = 0x38, DateTime = 0x3D, Int8 = 0x7F;
    const byte IntN = 0x26, BitN = 0x68, DateTimeN = 0x6F, DateTime2N = 0x2A, DateTimeOffsetN = 0x2B,
        DecimalN = 0x6A, NumericN = 0x6C, NVarChar = 0xE7, Variant = 0x62, NText = 0x63, Image = 0x22, NChar = 0xEF, BigVarChar = 0xA7, BigChar = 0xAF,
        BigVarBinary = 0xA5, BigBinary = 0xAD, FloatN = 0x6D, MoneyN = 0x6E, DateN = 0x28, TimeN = 0x29, GuidN = 0x24;
    const int VariantMaxLength = 8009;
    static readonly DateTime SqlDateTimeEpoch = new(1900, 1, 1);

    public static void WriteTypeInfo(PayloadWriter w, ResultColumn c)
    {
        switch (c.Type)
        {
            case SqlType.NVarChar:
                w.Byte(NVarChar);
                w.UInt16(c.MaxLength < 0 ? (ushort)0xFFFF : (ushort)(c.MaxLength * 2));
                w.Bytes(TokenWriter.DefaultCollation);
                break;
            case SqlType.Int or SqlType.BigInt or SqlType.SmallInt or SqlType.TinyInt:
                if (c.Nullable) { w.Byte(IntN); w.Byte((byte)IntegerSize(c.Type)); }
                else w.Byte(c.Type switch { SqlType.Int => Int4, SqlType.BigInt => Int8, SqlType.SmallInt => Int2, _ => Int1 });
                break;
            case SqlType.Bit:
                if (c.Nullable) { w.Byte(BitN); w.Byte(1); } else w.Byte(Bit);
                break;
            case SqlType.DateTime:
                if (c.Nullable) { w.Byte(DateTimeN); w.Byte(8); } else w.Byte(DateTime);
                break;
            case SqlType.DateTime2:
                w.Byte(DateTime2N); w.Byte(c.Scale);
                break;
            case SqlType.DateTimeOffset:
                w.Byte(DateTimeOffsetN); w.Byte(c.Scale);
                break;
            case SqlType.Decimal or SqlType.Numeric:
                w.Byte(c.Type == SqlType.Numeric ? NumericN : DecimalN);
                w.Byte(DecimalSize(c.Precision)); w.Byte(c.Precision); w.Byte(c.Scale);
                break;
            case SqlType.SqlVariant:
                w.Byte(Variant); w.Int32(VariantMaxLength);
                break;
            case SqlType.NChar:
                w.Byte(NChar); w.UInt16((ushort)(c.MaxLength * 2)); w.Bytes(TokenWriter.DefaultCollation);
                break;
            case SqlType.VarChar or SqlType.Char:
                w.Byte(c.Type == SqlType.Char ? BigChar : BigVarChar);
                w.UInt16(c.MaxLength < 0 ? (ushort)0xFFFF : (ushort)c.MaxLength);
                w.Bytes(TokenWriter.DefaultCollation);
                break;
            case SqlType.VarBinary or SqlType.Binary:
                w.Byte(c.Type == SqlType.Binary ? BigBinary : BigVarBinary);
                w.UInt16(c.MaxLength < 0 ? (ushort)0xFFFF : (ushort)c.MaxLength);
                break;
            case SqlType.Float or SqlType.Real:
                w.Byte(FloatN); w.Byte(c.Type == SqlType.Real ? (byte)4 : (byte)8);
                break;
            case SqlType.Money or SqlType.SmallMoney:
                w.Byte(MoneyN); w.Byte(c.Type == SqlType.SmallMoney ? (byte)4 : (byte)8);
                break;
            case SqlType.SmallDateTime:
                w.Byte(DateTimeN); w.Byte(4);
                break;
            case SqlType.Date:
                w.Byte(DateN);
                break;
            case SqlType.Time:
                w.Byte(TimeN); w.Byte(c.Scale);
                break;
            case SqlType.UniqueIdentifier:
                w.Byte(GuidN); w.Byte(16);
                break;
            default:
                throw new NotSupportedException($"Column type {c.Type} cannot be encoded.");
        }
    }

    /// <summary>NTEXT's TYPE_INFO: the type, its LONGLEN maximum (2^30 - 1 characters) and the collation.</summary>
    public static void WriteNTextTypeInfo(PayloadWriter w)
    {
        w.Byte(NText);
        w.Int32(0x7FFFFFFE);
        w.Bytes(TokenWriter.DefaultCollation);
    }

    /// <summary>An NTEXT value: a 16-byte text pointer and 8-byte timestamp, then the LONGLEN-prefixed text; NULL has no pointer.</summary>
    public static void WriteNTextValue(PayloadWriter w, string? text)
    {
        if (text is null) { w.Byte(0); return; }
        w.Byte(16);
        w.Bytes(new byte[16]);
        w.Bytes(new byte[8]);
        w.Int32(checked(text.Length * 2));
        w.Ucs2(text);
    }

    /// <summary>IMAGE's TYPE_INFO: the type and its LONGLEN maximum (2^31 - 1 bytes); no collation.</summary>
    public static void WriteImageTypeInfo(PayloadWriter w)
    {
        w.Byte(Image);
        w.Int32(0x7FFFFFFF);
    }

    /// <summary>An IMAGE value: a 16-byte text pointer and 8-byte timestamp, then the LONGLEN-prefixed bytes; NULL has no pointer.</summary>
    public static void WriteImageValue(PayloadWriter w, byte[]? bytes)
    {
        if (bytes is null) { w.Byte(0); return; }
        w.Byte(16);
        w.Bytes(new byte[16]);
        w.Bytes(new byte[8]);
        w.Int32(bytes.Length);
        w.Bytes(bytes);
    }

    /// <param name="packetBody">Payload bytes per packet: the response payload is split every this many bytes.</param>
    public static void WriteValue(PayloadWriter w, ResultColumn c, object? value, int packetBody)
    {
        switch (c.Type)
        {
            case SqlType.NVarChar:
                WriteNVarChar(w, c.MaxLength < 0, value as string ?? value?.ToString(), packetBody);
                break;
            case SqlType.Int or SqlType.BigInt or SqlType.SmallInt or SqlType.TinyInt:
                if (c.Nullable) { if (value is null) { w.Byte(0); break; } w.Byte((byte)IntegerSize(c.Type)); }
                else if (value is null) throw NullInNotNull(c);
                WriteInteger(w, c.Type, Convert.ToInt64(value));
                break;
            case SqlType.Bit:
                if (c.Nullable) { if (value is null) { w.Byte(0); break; } w.Byte(1); }
                else if (value is null) throw NullInNotNull(c);
                w.Byte(Convert.ToBoolean(value) ? (byte)1 : (byte)0);
                break;
            case SqlType.DateTime:
                if (c.Nullable) { if (value is null) { w.Byte(0); break; } w.Byte(8); }
                else if (value is null) throw NullInNotNull(c);
                WriteDateTime(w, (DateTime)value);
                break;
            case SqlType.DateTime2:
                if (value is null) { w.Byte(0); break; }
                w.Byte((byte)(TimeSize(c.Scale) + 3));
                WriteTimeAndDate(w, (DateTime)value, c.Scale);
                break;
            case SqlType.DateTimeOffset:
                if (value is null) { w.Byte(0); break; }
                var dto = (DateTimeOffset)value;
                w.Byte((byte)(TimeSize(c.Scale) + 5));
                WriteTimeAndDate(w, dto.UtcDateTime, c.Scale);
                w.Int16((short)dto.Offset.TotalMinutes);
                break;
            case SqlType.Decimal or SqlType.Numeric:
                if (value is null) { w.Byte(0); break; }
                w.Byte(DecimalSize(c.Precision));
                WriteDecimalBody(w, Convert.ToDecimal(value), c.Scale, DecimalSize(c.Precision) - 1);
                break;
            case SqlType.SqlVariant:
                WriteVariant(w, value as VariantValue);
                break;
            case SqlType.NChar:
                WriteNVarChar(w, false, value as string, packetBody);
                break;
            case SqlType.VarChar or SqlType.Char:
                WriteBytes(w, c.MaxLength < 0, value is string text ? System.Text.Encoding.Latin1.GetBytes(text) : null, packetBody);
                break;
            case SqlType.VarBinary or SqlType.Binary:
                WriteBytes(w, c.MaxLength < 0, value as byte[], packetBody);
                break;
            case SqlType.Float:
                if (value is null) { w.Byte(0); break; }
                w.Byte(8); w.Int64(BitConverter.DoubleToInt64Bits(Convert.ToDouble(value)));
                break;
            case SqlType.Real:
                if (value is null) { w.Byte(0); break; }
                w.Byte(4); w.Int32(BitConverter.SingleToInt32Bits(Convert.ToSingle(value)));
                break;
            case SqlType.Money:
                if (value is null) { w.Byte(0); break; }
                var money = (long)decimal.Round(Convert.ToDecimal(value) * 10000m);
                w.Byte(8); w.Int32((int)(money >> 32)); w.UInt32((uint)money);
                break;
            case SqlType.SmallMoney:
                if (value is null) { w.Byte(0); break; }
                w.Byte(4); w.Int32((int)decimal.Round(Convert.ToDecimal(value) * 10000m));
                break;
            case SqlType.SmallDateTime:
                if (value is null) { w.Byte(0); break; }
                var small = (DateTime)value;
                w.Byte(4);
                w.UInt16((ushort)(small.Date - SqlDateTimeEpoch).TotalDays);
                w.UInt16((ushort)small.TimeOfDay.TotalMinutes);
                break;
            case SqlType.Date:
                if (value is null) { w.Byte(0); break; }
                var dayNumber = (int)(((DateTime)value).Date - System.DateTime.MinValue).TotalDays;
                w.Byte(3); w.Byte((byte)dayNumber); w.Byte((byte)(dayNumber >> 8)); w.Byte((byte)(dayNumber >> 16));
                break;
            case SqlType.Time:
                if (value is null) { w.Byte(0); break; }
                var units = ((TimeSpan)value).Ticks / (long)Math.Pow(10, 7 - c.Scale);
                w.Byte((byte)TimeSize(c.Scale));
                for (var i = 0; i < TimeSize(c.Scale); i++) w.Byte((byte)(units >> (8 * i)));
                break;
            case SqlType.UniqueIdentifier:
                if (value is null) { w.Byte(0); break; }
                w.Byte(16); w.Bytes(((Guid)value).ToByteArray());
                break;
            default:
                throw new NotSupportedException($"Column type {c.Type} cannot be encoded.");
        }
    }

    static void WriteNVarChar(PayloadWriter w, bool isMax, string? text, int packetBody)
    {
        if (isMax)
        {
            if (text is null) { w.UInt64(ulong.MaxValue); return; }
            w.UInt64((ulong)text.Length * 2);
            WritePlpChunks(w, System.Text.Encoding.Unicode.GetBytes(text), packetBody);
            w.UInt32(0);
            return;
        }
        if (text is null) { w.UInt16(0xFFFF); return; }
        w.UInt16(checked((ushort)(text.Length * 2)));
        w.Ucs2(text);
    }

    /// <summary>varchar, char, varbinary and binary values: USHORT length (0xFFFF for NULL), or PLP for the max types.</summary>
    static void WriteBytes(PayloadWriter w, bool isMax, byte[]? bytes, int packetBody)
    {
        if (isMax)
        {
            if (bytes is null) { w.UInt64(ulong.MaxValue); return; }
            w.UInt64((ulong)bytes.Length);
            WritePlpChunks(w, bytes, packetBody);
            w.UInt32(0);
            return;
        }
        if (bytes is null) { w.UInt16(0xFFFF); return; }
        w.UInt16(checked((ushort)bytes.Length));
        w.Bytes(bytes);
    }

    /// <summary>
    /// PLP chunks that each end at or before the end of a packet, as SQL Server sends them. One chunk spanning several
    /// packets is valid TDS, but SqlClient 6.1's async reader fails on it (ArgumentOutOfRangeException in
    /// TryReadByteArray) when a character is split between packets, as at Packet Size=32767, whose body is odd.
    /// </summary>
    static void WritePlpChunks(PayloadWriter w, ReadOnlySpan<byte> data, int packetBody)
    {
        while (!data.IsEmpty)
        {
            // The message starts a packet, so the payload offset modulo the body size is the place in the packet.
            var dataStart = (w.Length + 4) % packetBody;
            var chunk = Math.Min(data.Length, packetBody - dataStart);
            w.UInt32((uint)chunk);
            w.Bytes(data[..chunk]);
            data = data[chunk..];
        }
    }

    static void WriteVariant(PayloadWriter w, VariantValue? variant)
    {
        if (variant is null) { w.Int32(0); return; }
        switch (variant.BaseType)
        {
            case SqlType.NVarChar:
                var text = (string)variant.Value;
                w.Int32(2 + 7 + text.Length * 2);
                w.Byte(NVarChar); w.Byte(7);
                w.Bytes(TokenWriter.DefaultCollation);
                w.UInt16(checked((ushort)(text.Length * 2)));
                w.Ucs2(text);
                break;
            case SqlType.Int:
                w.Int32(2 + 4); w.Byte(Int4); w.Byte(0); w.Int32(Convert.ToInt32(variant.Value));
                break;
            case SqlType.BigInt:
                w.Int32(2 + 8); w.Byte(Int8); w.Byte(0); w.Int64(Convert.ToInt64(variant.Value));
                break;
            case SqlType.TinyInt:
                w.Int32(2 + 1); w.Byte(Int1); w.Byte(0); w.Byte(Convert.ToByte(variant.Value));
                break;
            case SqlType.Bit:
                w.Int32(2 + 1); w.Byte(Bit); w.Byte(0); w.Byte(Convert.ToBoolean(variant.Value) ? (byte)1 : (byte)0);
                break;
            case SqlType.DateTime:
                w.Int32(2 + 8); w.Byte(DateTime); w.Byte(0); WriteDateTime(w, (DateTime)variant.Value);
                break;
            default:
                throw new NotSupportedException($"sql_variant base type {variant.BaseType} cannot be encoded.");
        }
    }

    static int IntegerSize(SqlType type) => type switch
    {
        SqlType.TinyInt => 1, SqlType.SmallInt => 2, SqlType.Int => 4, _ => 8,
    };

    static void WriteInteger(PayloadWriter w, SqlType type, long value)
    {
        switch (type)
        {
            case SqlType.TinyInt: w.Byte((byte)value); break;
            case SqlType.SmallInt: w.Int16((short)value); break;
            case SqlType.Int: w.Int32((int)value); break;
            default: w.Int64(value); break;
        }
    }

    /// <summary>datetime: days since 1900-01-01, then 1/300-second ticks since midnight.</summary>
    static void WriteDateTime(PayloadWriter w, DateTime value)
    {
        var days = (int)(value.Date - SqlDateTimeEpoch).TotalDays;
        var ticks = (uint)Math.Round(value.TimeOfDay.TotalMilliseconds * 3 / 10.0, MidpointRounding.AwayFromZero);
        w.Int32(days);
        w.UInt32(ticks);
    }

    static int TimeSize(byte scale) => scale <= 2 ? 3 : scale <= 4 ? 4 : 5;

    /// <summary>time(n) as 10^-n second units since midnight, then date as days since 0001-01-01 (3 bytes each part LE).</summary>
    static void WriteTimeAndDate(PayloadWriter w, DateTime value, byte scale)
    {
        var units = value.TimeOfDay.Ticks / (long)Math.Pow(10, 7 - scale);
        var timeSize = TimeSize(scale);
        for (var i = 0; i < timeSize; i++) w.Byte((byte)(units >> (8 * i)));
        var days = (int)(value.Date - System.DateTime.MinValue).TotalDays;
        w.Byte((byte)days); w.Byte((byte)(days >> 8)); w.Byte((byte)(days >> 16));
    }

    static byte DecimalSize(byte precision) => precision <= 9 ? (byte)5 : precision <= 19 ? (byte)9 : precision <= 28 ? (byte)13 : (byte)17;

    /// <summary>
    /// Sign byte, then the value times 10^scale as an unsigned little-endian integer. BigInteger, because a
    /// decimal(38, 10) value scaled by 10^10 no longer fits System.Decimal's 96 bits (9999999999999999999.25 did not).
    /// </summary>
    static void WriteDecimalBody(PayloadWriter w, decimal value, byte scale, int mantissaBytes)
    {
        // SQL Server rounds half away from zero when it narrows a decimal's scale.
        var rounded = decimal.Round(value, Math.Min((int)scale, 28), MidpointRounding.AwayFromZero);
        var bits = decimal.GetBits(rounded);
        var valueScale = (bits[3] >> 16) & 0xFF;
        var mantissa = new BigInteger((uint)bits[0]) | (new BigInteger((uint)bits[1]) << 32) | (new BigInteger((uint)bits[2]) << 64);
        mantissa *= BigInteger.Pow(10, scale - valueScale);
        var bytes = new byte[mantissaBytes];
        if (!mantissa.TryWriteBytes(bytes, out _, isUnsigned: true, isBigEndian: false))
            throw new InvalidOperationException($"{value} does not fit decimal with scale {scale} in {mantissaBytes} bytes.");
        w.Byte(value < 0 ? (byte)0 : (byte)1);
        w.Bytes(bytes);
    }

    static InvalidOperationException NullInNotNull(ResultColumn c) =>
        new($"Simulator bug: NULL in NOT NULL column '{c.Name}'.");
}

using System.Text;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tds;

/// <summary>Reads one RPC parameter's TYPE_INFO and value into a CLR value.</summary>
internal static class ParameterReader
{
    const byte BigBinary = 0xAD, BigChar = 0xAF, TimeN = 0x29;
    const byte GuidN = 0x24, IntN = 0x26, DateN = 0x28, DateTime2N = 0x2A, DateTimeOffsetN = 0x2B, NText = 0x63,
        BitN = 0x68, DecimalN = 0x6A, NumericN = 0x6C, FloatN = 0x6D, MoneyN = 0x6E, DateTimeN = 0x6F,
        BigVarChar = 0xA7, BigVarBinary = 0xA5, NVarChar = 0xE7, NChar = 0xEF;
    static readonly DateTime SqlDateTimeEpoch = new(1900, 1, 1);

    /// <summary>The value with the SQL type its TYPE_INFO declares, so that selecting the parameter returns that type.</summary>
    public static TypedValue ReadTypedValue(PayloadReader r)
    {
        var type = r.Byte();
        switch (type)
        {
            case NVarChar or NChar or BigVarChar or BigVarBinary or BigChar or BigBinary:
            {
                var maxLength = r.UInt16();
                if (type is not (BigVarBinary or BigBinary)) r.Skip(5); // collation
                var bytes = maxLength == 0xFFFF ? ReadPlp(r) : ReadUShortLengthBytes(r);
                var unicode = type is NVarChar or NChar;
                var declared = maxLength == 0xFFFF ? -1 : unicode ? maxLength / 2 : maxLength;
                var sqlType = type switch
                {
                    NVarChar => SqlType.NVarChar, NChar => SqlType.NChar, BigVarChar => SqlType.VarChar,
                    BigChar => SqlType.Char, BigVarBinary => SqlType.VarBinary, _ => SqlType.Binary,
                };
                object? value = bytes is null ? null
                    : unicode ? Encoding.Unicode.GetString(bytes)
                    : type is BigVarChar or BigChar ? Encoding.Latin1.GetString(bytes)
                    : bytes;
                return new TypedValue(sqlType, value, declared);
            }
            case NText:
            {
                r.Int32(); // max length
                r.Skip(5); // collation
                var length = r.Int32();
                return new TypedValue(SqlType.NVarChar, length < 0 ? null : Encoding.Unicode.GetString(r.Bytes(length)), -1);
            }
            case IntN:
            {
                var size = r.Byte();
                var length = r.Byte();
                var sqlType = size switch { 1 => SqlType.TinyInt, 2 => SqlType.SmallInt, 4 => SqlType.Int, _ => SqlType.BigInt };
                return new TypedValue(sqlType, length switch
                {
                    0 => null,
                    1 => r.Byte(),
                    2 => r.Int16(),
                    4 => r.Int32(),
                    8 => r.Int64(),
                    _ => throw new TdsProtocolException($"INTN length {length} is invalid."),
                });
            }
            case BitN:
            {
                r.Byte();
                return new TypedValue(SqlType.Bit, r.Byte() == 0 ? null : r.Byte() != 0);
            }
            case FloatN:
            {
                var size = r.Byte();
                var length = r.Byte();
                return new TypedValue(size == 4 ? SqlType.Real : SqlType.Float, length switch
                {
                    0 => null,
                    4 => BitConverter.Int32BitsToSingle(r.Int32()),
                    8 => BitConverter.Int64BitsToDouble(r.Int64()),
                    _ => throw new TdsProtocolException($"FLTN length {length} is invalid."),
                });
            }
            case MoneyN:
            {
                var size = r.Byte();
                var length = r.Byte();
                var sqlType = size == 4 ? SqlType.SmallMoney : SqlType.Money;
                if (length == 0) return new TypedValue(sqlType, null);
                if (length == 4) return new TypedValue(sqlType, r.Int32() / 10000m);
                var high = (long)r.Int32();
                var low = r.UInt32();
                return new TypedValue(sqlType, ((high << 32) | low) / 10000m);
            }
            case DateTimeN:
            {
                var size = r.Byte();
                var length = r.Byte();
                var sqlType = size == 4 ? SqlType.SmallDateTime : SqlType.DateTime;
                if (length == 0) return new TypedValue(sqlType, null);
                if (length == 4) return new TypedValue(sqlType, SqlDateTimeEpoch.AddDays(r.UInt16()).AddMinutes(r.UInt16()));
                var days = r.Int32();
                var ticks = r.UInt32();
                return new TypedValue(sqlType, SqlDateTimeEpoch.AddDays(days).AddMilliseconds(Math.Round(ticks * 10 / 3.0)));
            }
            case DateN:
            {
                var length = r.Byte();
                return new TypedValue(SqlType.Date, length == 0 ? null : DateTime.MinValue.AddDays(ReadUInt24(r)));
            }
            case TimeN:
            {
                var scale = r.Byte();
                var length = r.Byte();
                if (length == 0) return new TypedValue(SqlType.Time, null, Scale: scale);
                long units = 0;
                for (var i = 0; i < length; i++) units |= (long)r.Byte() << (8 * i);
                return new TypedValue(SqlType.Time, TimeSpan.FromTicks(units * (long)Math.Pow(10, 7 - scale)), Scale: scale);
            }
            case DateTime2N:
            {
                var scale = r.Byte();
                var length = r.Byte();
                return new TypedValue(SqlType.DateTime2, length == 0 ? null : ReadTimeAndDate(r, scale), Scale: scale);
            }
            case DateTimeOffsetN:
            {
                var scale = r.Byte();
                var length = r.Byte();
                if (length == 0) return new TypedValue(SqlType.DateTimeOffset, null, Scale: scale);
                var utc = ReadTimeAndDate(r, scale);
                var offset = TimeSpan.FromMinutes(r.Int16());
                return new TypedValue(SqlType.DateTimeOffset,
                    new DateTimeOffset(DateTime.SpecifyKind(utc + offset, DateTimeKind.Unspecified), offset), Scale: scale);
            }
            case DecimalN or NumericN:
            {
                r.Byte();
                var precision = r.Byte();
                var scale = r.Byte();
                var length = r.Byte();
                var sqlType = type == NumericN ? SqlType.Numeric : SqlType.Decimal;
                if (length == 0) return new TypedValue(sqlType, null, Precision: precision, Scale: scale);
                var positive = r.Byte() == 1;
                var mantissa = new byte[16];
                r.Bytes(length - 1).CopyTo(mantissa);
                var value = new decimal(BitConverter.ToInt32(mantissa, 0), BitConverter.ToInt32(mantissa, 4),
                    BitConverter.ToInt32(mantissa, 8), !positive, scale);
                return new TypedValue(sqlType, value, Precision: precision, Scale: scale);
            }
            case GuidN:
            {
                r.Byte();
                var length = r.Byte();
                return new TypedValue(SqlType.UniqueIdentifier, length == 0 ? null : new Guid(r.Bytes(16)));
            }
            default:
                throw new TdsProtocolException($"RPC parameter type 0x{type:X2} is not supported by the simulator.");
        }
    }

    static byte[]? ReadUShortLengthBytes(PayloadReader r)
    {
        var length = r.UInt16();
        return length == 0xFFFF ? null : r.Bytes(length).ToArray();
    }

    /// <summary>PLP: total length (all ones = NULL), then chunks each with a 4-byte length, ended by a zero chunk.</summary>
    static byte[]? ReadPlp(PayloadReader r)
    {
        var total = r.UInt64();
        if (total == ulong.MaxValue) return null;
        using var buffer = new MemoryStream();
        while (true)
        {
            var chunk = r.Int32();
            if (chunk == 0) break;
            buffer.Write(r.Bytes(chunk));
        }
        return buffer.ToArray();
    }

    static int ReadUInt24(PayloadReader r) => r.Byte() | (r.Byte() << 8) | (r.Byte() << 16);

    static DateTime ReadTimeAndDate(PayloadReader r, byte scale)
    {
        var timeSize = scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
        long units = 0;
        for (var i = 0; i < timeSize; i++) units |= (long)r.Byte() << (8 * i);
        var ticks = units * (long)Math.Pow(10, 7 - scale);
        return DateTime.MinValue.AddDays(ReadUInt24(r)).AddTicks(ticks);
    }
}

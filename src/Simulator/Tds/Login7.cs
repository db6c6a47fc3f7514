using System.Text;

namespace IfiDashboard.Simulator.Tds;

/// <summary>The fields of a LOGIN7 message the simulator uses ([MS-TDS] 2.2.6.4).</summary>
internal sealed record Login7(
    uint TdsVersion,
    int PacketSize,
    string HostName,
    string UserName,
    string Password,
    string AppName,
    string ServerName,
    string Database,
    bool IntegratedSecurity,
    byte[] Sspi,
    IReadOnlyList<byte> FeatureIds)
{
    const byte OptionFlags2IntegratedSecurity = 0x80;
    const byte OptionFlags3Extension = 0x10;
    const byte FeatureTerminator = 0xFF;

    public static Login7 Parse(byte[] payload)
    {
        var reader = new PayloadReader(payload);
        var length = reader.UInt32();
        if (length > payload.Length)
            throw new TdsProtocolException($"LOGIN7 claims {length} bytes but the message has {payload.Length}.");
        var tdsVersion = reader.UInt32();
        var packetSize = reader.Int32();
        reader.Skip(4 + 4 + 4); // ClientProgVer, ClientPID, ConnectionID
        reader.Byte(); // OptionFlags1
        var optionFlags2 = reader.Byte();
        reader.Byte(); // TypeFlags
        var optionFlags3 = reader.Byte();
        reader.Skip(4 + 4); // ClientTimeZone, ClientLCID

        string Field() => ReadString(payload, reader.UInt16(), reader.UInt16());
        var hostName = Field();
        var userName = Field();
        var passwordOffset = reader.UInt16();
        var passwordLength = reader.UInt16();
        var appName = Field();
        var serverName = Field();
        var extensionOffset = reader.UInt16();
        var extensionLength = reader.UInt16();
        Field(); // CltIntName
        Field(); // Language
        var database = Field();
        reader.Skip(6); // ClientID
        var sspiOffset = reader.UInt16();
        var sspiLength = (int)reader.UInt16();
        reader.Skip(4 + 4); // AtchDBFile, ChangePassword
        // A token longer than 65,534 bytes says 0xFFFF here and its length in cbSSPILong (TDS 7.2 and later).
        if (sspiLength == ushort.MaxValue) sspiLength = (int)reader.UInt32();

        var features = (optionFlags3 & OptionFlags3Extension) != 0 && extensionLength >= 4
            ? ReadFeatureIds(payload, BitConverter.ToInt32(payload, extensionOffset))
            : [];

        return new Login7(tdsVersion, packetSize, hostName, userName,
            DecodePassword(payload, passwordOffset, passwordLength), appName, serverName, database,
            (optionFlags2 & OptionFlags2IntegratedSecurity) != 0, ReadBytes(payload, sspiOffset, sspiLength), features);
    }

    static byte[] ReadBytes(byte[] payload, int offset, int length)
    {
        if (offset + length > payload.Length)
            throw new TdsProtocolException("The LOGIN7 SSPI data points past the end of the message.");
        return payload.AsSpan(offset, length).ToArray();
    }

    static string ReadString(byte[] payload, int offset, int characters)
    {
        if (characters == 0) return "";
        if (offset + characters * 2 > payload.Length)
            throw new TdsProtocolException("A LOGIN7 field points past the end of the message.");
        return Encoding.Unicode.GetString(payload, offset, characters * 2);
    }

    /// <summary>
    /// The client swaps the nibbles of every password byte and XORs it with 0xA5; undo both, in reverse order.
    /// </summary>
    static string DecodePassword(byte[] payload, int offset, int characters)
    {
        if (offset + characters * 2 > payload.Length)
            throw new TdsProtocolException("The LOGIN7 password points past the end of the message.");
        var bytes = new byte[characters * 2];
        for (var i = 0; i < bytes.Length; i++)
        {
            var b = (byte)(payload[offset + i] ^ 0xA5);
            bytes[i] = (byte)((b << 4) | (b >> 4));
        }
        return Encoding.Unicode.GetString(bytes);
    }

    static List<byte> ReadFeatureIds(byte[] payload, int offset)
    {
        var ids = new List<byte>();
        var reader = new PayloadReader(payload) { Position = offset };
        while (reader.Remaining > 0)
        {
            var id = reader.Byte();
            if (id == FeatureTerminator) break;
            ids.Add(id);
            reader.Skip(reader.Int32());
        }
        return ids;
    }
}

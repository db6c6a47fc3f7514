namespace IfiDashboard.Simulator.Tds;

/// <summary>PRELOGIN encryption values ([MS-TDS] 2.2.6.5).</summary>
internal static class PreLoginEncryption
{
    public const byte Off = 0x00;
    public const byte On = 0x01;
    public const byte NotSupported = 0x02;
    public const byte Required = 0x03;
}

/// <summary>The options of a client's PRELOGIN that the server acts on.</summary>
internal sealed record PreLoginRequest(byte Encryption, bool RequestsMars, bool HasFedAuthRequired)
{
    const byte OptionVersion = 0x00, OptionEncryption = 0x01, OptionMars = 0x04, OptionFedAuthRequired = 0x06, Terminator = 0xFF;

    public static PreLoginRequest Parse(byte[] payload)
    {
        var reader = new PayloadReader(payload);
        byte encryption = PreLoginEncryption.NotSupported;
        var mars = false;
        var fedAuth = false;
        while (true)
        {
            var token = reader.Byte();
            if (token == Terminator) break;
            var offset = reader.UInt16BigEndian();
            var length = reader.UInt16BigEndian();
            if (offset + length > payload.Length)
                throw new TdsProtocolException($"PRELOGIN option {token} points past the end of the message.");
            switch (token)
            {
                case OptionEncryption when length >= 1: encryption = payload[offset]; break;
                case OptionMars when length >= 1: mars = payload[offset] == 1; break;
                case OptionFedAuthRequired: fedAuth = true; break;
            }
        }
        return new PreLoginRequest(encryption, mars, fedAuth);
    }

    /// <summary>
    /// The server's answer: VERSION, ENCRYPTION, INSTOPT (0: the instance matched, never a failure), THREADID (empty)
    /// and MARS (on when the client asked for it, as SQL Server 2005 and later answer), as SQL Server sends them.
    /// </summary>
    public static byte[] BuildResponse(Version productVersion, byte encryption, bool mars = false)
    {
        var options = new (byte Token, byte[] Data)[]
        {
            (OptionVersion, [(byte)productVersion.Major, (byte)productVersion.Minor,
                (byte)(productVersion.Build >> 8), (byte)productVersion.Build, 0, 0]),
            (OptionEncryption, [encryption]),
            (0x02, [0]),
            (0x03, []),
            (OptionMars, [mars ? (byte)1 : (byte)0]),
        };
        var writer = new PayloadWriter();
        var dataOffset = options.Length * 5 + 1;
        foreach (var (token, data) in options)
        {
            writer.Byte(token);
            writer.UInt16BigEndian((ushort)dataOffset);
            writer.UInt16BigEndian((ushort)data.Length);
            dataOffset += data.Length;
        }
        writer.Byte(Terminator);
        foreach (var (_, data) in options) writer.Bytes(data);
        return writer.Written.ToArray();
    }
}

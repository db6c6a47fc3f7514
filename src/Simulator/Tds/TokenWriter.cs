using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tds;

/// <summary>Writes the server's token stream ([MS-TDS] 2.2.7) into a response payload.</summary>
/// <param name="packetSize">The negotiated packet size the payload will be split at; nvarchar(max) chunks align to it.</param>
internal sealed class TokenWriter(PayloadWriter writer, string serverName, int packetSize = TdsTransport.DefaultPacketSize)
{
    const byte TokenLoginAck = 0xAD, TokenEnvChange = 0xE3, TokenInfo = 0xAB, TokenError = 0xAA,
        TokenDone = 0xFD, TokenDoneInProc = 0xFF, TokenColMetadata = 0x81, TokenRow = 0xD1, TokenFeatureExtAck = 0xAE,
        TokenSspi = 0xED;

    /// <summary>SQL_Latin1_General_CP1_CI_AS: LCID 0x0409, flags 0xD0, sort id 52.</summary>
    public static readonly byte[] DefaultCollation = [0x09, 0x04, 0xD0, 0x00, 0x34];

    public const ushort DoneFinal = 0x00, DoneMore = 0x01, DoneError = 0x02, DoneCount = 0x10, DoneAttention = 0x20;
    public const ushort CurCmdSelect = 0xC1;

    public PayloadWriter Payload => writer;

    /// <summary>
    /// The TDS version LOGINACK answers a LOGIN7 with: the client's own for 7.2 and 7.3 ([MS-TDS]: the highest version
    /// both speak), 7.4 for 7.4 and later (TDS 8.0 clients send 0x08000000 and get 7.4). Not yet 7.1, whose token
    /// stream differs (4-byte DONE row counts, no PLP, ...): a 7.1 client still gets 7.4. [U] the simulator also sends
    /// 7.3+ data types (datetime2, ...) to a 7.2 client, where SQL Server would send them as nvarchar.
    /// </summary>
    public static uint AgreedTdsVersion(uint client) => client switch
    {
        0x72090002 or 0x730A0003 or 0x730B0003 => client,
        _ => 0x74000004,
    };

    /// <summary>LOGINACK; the TDS version goes big-endian, as SQL Server sends it.</summary>
    public void LoginAck(Version productVersion, uint tdsVersion = 0x74000004)
    {
        writer.Byte(TokenLoginAck);
        var start = writer.Length;
        writer.UInt16(0);
        writer.Byte(1); // SQL_TSQL
        writer.UInt32BigEndian(tdsVersion);
        writer.BVarChar("Microsoft SQL Server");
        writer.Byte((byte)productVersion.Major);
        writer.Byte((byte)productVersion.Minor);
        writer.Byte((byte)(productVersion.Build >> 8));
        writer.Byte((byte)productVersion.Build);
        writer.PatchUInt16(start, (ushort)(writer.Length - start - 2));
    }

    public void EnvChange(byte type, string newValue, string oldValue)
    {
        writer.Byte(TokenEnvChange);
        var start = writer.Length;
        writer.UInt16(0);
        writer.Byte(type);
        writer.BVarChar(newValue);
        writer.BVarChar(oldValue);
        writer.PatchUInt16(start, (ushort)(writer.Length - start - 2));
    }

    public void CollationEnvChange()
    {
        writer.Byte(TokenEnvChange);
        writer.UInt16((ushort)(1 + 1 + DefaultCollation.Length + 1));
        writer.Byte(7);
        writer.Byte((byte)DefaultCollation.Length);
        writer.Bytes(DefaultCollation);
        writer.Byte(0);
    }

    /// <summary>An empty FEATUREEXTACK: the features the client offered are all declined.</summary>
    public void FeatureExtAckNone()
    {
        writer.Byte(TokenFeatureExtAck);
        writer.Byte(0xFF);
    }

    /// <summary>A leg of the login's SSPI exchange: the server's security token, answered by an SSPI message (0x11).</summary>
    public void Sspi(ReadOnlySpan<byte> token)
    {
        writer.Byte(TokenSspi);
        writer.UInt16((ushort)token.Length);
        writer.Bytes(token);
    }

    public void Message(SqlMessage message)
    {
        writer.Byte(message.IsError ? TokenError : TokenInfo);
        var start = writer.Length;
        writer.UInt16(0);
        writer.Int32(message.Number);
        writer.Byte(message.State);
        writer.Byte(message.Severity);
        writer.UsVarChar(message.Text);
        writer.BVarChar(serverName);
        writer.BVarChar("");
        writer.Int32(message.LineNumber);
        writer.PatchUInt16(start, (ushort)(writer.Length - start - 2));
    }

    public void Done(ushort status, ushort currentCommand, long rowCount, bool inProc = false)
    {
        writer.Byte(inProc ? TokenDoneInProc : TokenDone);
        writer.UInt16(status);
        writer.UInt16(currentCommand);
        writer.Int64(rowCount);
    }

    public void ColumnMetadata(IReadOnlyList<ResultColumn> columns)
    {
        writer.Byte(TokenColMetadata);
        writer.UInt16((ushort)columns.Count);
        foreach (var column in columns)
        {
            writer.UInt32(0); // UserType
            writer.UInt16((ushort)(column.Nullable ? 0x01 : 0x00));
            ValueEncoder.WriteTypeInfo(writer, column);
            writer.BVarChar(column.Name);
        }
    }

    public void Row(IReadOnlyList<ResultColumn> columns, object?[] values)
    {
        writer.Byte(TokenRow);
        for (var i = 0; i < columns.Count; i++)
            ValueEncoder.WriteValue(writer, columns[i], values[i], packetSize - TdsTransport.HeaderLength);
    }
}

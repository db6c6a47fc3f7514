using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tds;

/// <summary>Writes the server's token stream ([MS-TDS] 2.2.7) into a response payload.</summary>
/// <param name="packetSize">The negotiated packet size the payload will be split at; nvarchar(max) chunks align to it.</param>
/// <param name="tdsVersion">The version LOGINACK agreed on (<see cref="ClientTdsVersions"/>): older clients get older forms.</param>
internal sealed class TokenWriter(PayloadWriter writer, string serverName, int packetSize = TdsTransport.DefaultPacketSize,
    uint tdsVersion = ClientTdsVersions.Tds74)
{
    const byte TokenLoginAck = 0xAD, TokenEnvChange = 0xE3, TokenInfo = 0xAB, TokenError = 0xAA,
        TokenDone = 0xFD, TokenDoneInProc = 0xFF, TokenDoneProc = 0xFE, TokenReturnStatus = 0x79, TokenReturnValue = 0xAC, TokenColMetadata = 0x81,
        TokenRow = 0xD1, TokenFeatureExtAck = 0xAE, TokenSspi = 0xED;

    /// <summary>SQL_Latin1_General_CP1_CI_AS: LCID 0x0409, flags 0xD0, sort id 52.</summary>
    public static readonly byte[] DefaultCollation = [0x09, 0x04, 0xD0, 0x00, 0x34];

    public const ushort DoneFinal = 0x00, DoneMore = 0x01, DoneError = 0x02, DoneCount = 0x10, DoneAttention = 0x20;
    public const ushort CurCmdSelect = 0xC1;

    public PayloadWriter Payload => writer;

    /// <summary>LOGINACK; the TDS version goes big-endian, as SQL Server sends it.</summary>
    public void LoginAck(Version productVersion)
    {
        writer.Byte(TokenLoginAck);
        var start = writer.Length;
        writer.UInt16(0);
        writer.Byte(1); // SQL_TSQL
        writer.UInt32BigEndian(tdsVersion); // the agreed version (ClientTdsVersions.Agreed)
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

    /// <summary>ENVCHANGE 8 (begin), 9 (commit) or 10 (rollback): the descriptor is the new value on begin, the old one after.</summary>
    public void TransactionEnvChange(TransactionEvent change, long descriptor)
    {
        writer.Byte(TokenEnvChange);
        writer.UInt16(1 + 1 + 8 + 1);
        writer.Byte(change switch { TransactionEvent.Began => 8, TransactionEvent.Committed => 9, _ => 10 });
        if (change != TransactionEvent.Began) writer.Byte(0);
        writer.Byte(8);
        writer.Int64(descriptor);
        if (change == TransactionEvent.Began) writer.Byte(0);
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
        // LineNumber is a USHORT before TDS 7.2, a LONG since.
        if (tdsVersion < ClientTdsVersions.Tds72) writer.UInt16((ushort)Math.Clamp(message.LineNumber, 0, ushort.MaxValue));
        else writer.Int32(message.LineNumber);
        writer.PatchUInt16(start, (ushort)(writer.Length - start - 2));
    }

    /// <summary>
    /// RETURNSTATUS (0, or -6 after an error), the output parameters (RETURNVALUE, [MS-TDS] 2.2.7.18) and DONEPROC:
    /// how a system procedure called by RPC ends.
    /// </summary>
    public void ProcedureEnd(bool failed, IReadOnlyList<RpcOutput> outputs)
    {
        writer.Byte(TokenReturnStatus);
        writer.Int32(failed ? -6 : 0);
        foreach (var output in outputs) ReturnValue(output);
        WriteDone(TokenDoneProc, failed ? DoneError : DoneFinal, 0xE0, 0);
    }

    void ReturnValue(RpcOutput output)
    {
        var type = new ResultColumn(output.Name, SqlType.Int);
        writer.Byte(TokenReturnValue);
        writer.UInt16((ushort)output.Ordinal);
        writer.BVarChar(output.Name);
        writer.Byte(0x01); // Status: an output parameter
        // UserType is a USHORT before TDS 7.2, a ULONG since; Flags: nullable.
        if (tdsVersion < ClientTdsVersions.Tds72) writer.UInt16(0); else writer.UInt32(0);
        writer.UInt16(0x01);
        ValueEncoder.WriteTypeInfo(writer, type);
        ValueEncoder.WriteValue(writer, type, output.Value, packetSize - TdsTransport.HeaderLength);
    }

    public void Done(ushort status, ushort currentCommand, long rowCount, bool inProc = false) =>
        WriteDone(inProc ? TokenDoneInProc : TokenDone, status, currentCommand, rowCount);

    void WriteDone(byte token, ushort status, ushort currentCommand, long rowCount)
    {
        writer.Byte(token);
        writer.UInt16(status);
        writer.UInt16(currentCommand);
        // DoneRowCount is a LONG before TDS 7.2, a ULONGLONG since.
        if (tdsVersion < ClientTdsVersions.Tds72) writer.Int32((int)Math.Min(rowCount, int.MaxValue));
        else writer.Int64(rowCount);
    }

    public void ColumnMetadata(IReadOnlyList<ResultColumn> columns)
    {
        writer.Byte(TokenColMetadata);
        writer.UInt16((ushort)columns.Count);
        foreach (var declared in columns)
        {
            var column = ClientTdsVersions.OnWire(declared, tdsVersion);
            // UserType is a USHORT before TDS 7.2, a ULONG since.
            if (tdsVersion < ClientTdsVersions.Tds72) writer.UInt16(0); else writer.UInt32(0);
            writer.UInt16((ushort)(column.Nullable ? 0x01 : 0x00));
            if (IsNText(column) || IsImage(column))
            {
                if (IsNText(column)) ValueEncoder.WriteNTextTypeInfo(writer); else ValueEncoder.WriteImageTypeInfo(writer);
                writer.UsVarChar(""); // TableName: one US_VARCHAR before 7.2; an expression has none.
            }
            else
                ValueEncoder.WriteTypeInfo(writer, column);
            writer.BVarChar(column.Name);
        }
    }

    public void Row(IReadOnlyList<ResultColumn> columns, object?[] values)
    {
        writer.Byte(TokenRow);
        for (var i = 0; i < columns.Count; i++)
        {
            var column = ClientTdsVersions.OnWire(columns[i], tdsVersion);
            var value = ClientTdsVersions.ValueOnWire(columns[i], values[i], tdsVersion);
            if (IsNText(column)) ValueEncoder.WriteNTextValue(writer, value as string ?? value?.ToString());
            else if (IsImage(column)) ValueEncoder.WriteImageValue(writer, value as byte[]);
            else ValueEncoder.WriteValue(writer, column, value, packetSize - TdsTransport.HeaderLength);
        }
    }

    /// <summary>nvarchar(max) for a client without PLP (before TDS 7.2): SQL Server sends it as ntext.</summary>
    bool IsNText(ResultColumn column) =>
        column.Type == SqlType.NVarChar && column.MaxLength < 0 && !ClientTdsVersions.HasPlp(tdsVersion);

    /// <summary>varbinary(max) for a client without PLP: SQL Server sends it as image.</summary>
    bool IsImage(ResultColumn column) =>
        column.Type == SqlType.VarBinary && column.MaxLength < 0 && !ClientTdsVersions.HasPlp(tdsVersion);
}

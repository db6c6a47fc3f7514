using System.Text;

namespace IfiDashboard.Simulator.Tds;

/// <summary>One RPC parameter: its name (empty when sent by position), value and whether it is an output parameter.</summary>
internal sealed record RpcParameter(string Name, object? Value, bool IsOutput);

/// <summary>
/// An RPC request ([MS-TDS] 2.2.6.6): a procedure by name or well-known id, and its parameters in the order sent.
/// Every parameterised Dapper query arrives as sp_executesql (proc id 10); a statement longer than 4000 characters
/// arrives as NTEXT. <see cref="RpcProcedures"/> decides what it runs.
/// </summary>
internal sealed record RpcRequest(string ProcedureName, IReadOnlyList<RpcParameter> Parameters)
{
    const ushort ProcIdSwitch = 0xFFFF;
    const byte ByRefValue = 0x01;

    /// <summary>The well-known procedure ids of [MS-TDS] 2.2.6.6.</summary>
    static readonly string[] ProcIds =
    [
        "", "sp_cursor", "sp_cursoropen", "sp_cursorprepare", "sp_cursorexecute", "sp_cursorprepexec",
        "sp_cursorunprepare", "sp_cursorfetch", "sp_cursoroption", "sp_cursorclose", "sp_executesql", "sp_prepare",
        "sp_execute", "sp_prepexec", "sp_prepexecrpc", "sp_unprepare",
    ];

    /// <param name="allHeaders">The request starts with ALL_HEADERS, as it does from TDS 7.2 on.</param>
    public static RpcRequest Parse(byte[] payload, bool allHeaders = true)
    {
        var reader = new PayloadReader(payload);
        if (allHeaders) SkipAllHeaders(reader);
        var nameLength = reader.UInt16();
        string procedure;
        if (nameLength == ProcIdSwitch)
        {
            var procId = reader.UInt16();
            procedure = procId < ProcIds.Length && procId > 0 ? ProcIds[procId] : $"proc#{procId}";
        }
        else procedure = reader.Ucs2(nameLength);
        reader.UInt16(); // OptionFlags

        var parameters = new List<RpcParameter>();
        while (reader.Remaining > 0)
        {
            var next = payload[reader.Position];
            if (next is 0xFF or 0xFE)
                throw new TdsProtocolException("Batched RPC requests are not supported by the simulator.");
            var name = reader.BVarChar();
            var status = reader.Byte();
            parameters.Add(new RpcParameter(name, ParameterReader.ReadTypedValue(reader), (status & ByRefValue) != 0));
        }
        return new RpcRequest(procedure, parameters);
    }

    /// <summary>ALL_HEADERS: a total length that counts itself, then the headers (transaction descriptor, trace).</summary>
    public static void SkipAllHeaders(PayloadReader reader)
    {
        var total = reader.UInt32();
        if (total < 4) throw new TdsProtocolException($"ALL_HEADERS length {total} is too short.");
        reader.Skip((int)total - 4);
    }

    /// <param name="allHeaders">The batch starts with ALL_HEADERS, as it does from TDS 7.2 on.</param>
    public static string ParseSqlBatch(byte[] payload, bool allHeaders = true)
    {
        var reader = new PayloadReader(payload);
        if (allHeaders) SkipAllHeaders(reader);
        return Encoding.Unicode.GetString(payload, reader.Position, reader.Remaining);
    }
}

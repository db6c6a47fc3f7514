using System.Text;

namespace IfiDashboard.Simulator.Tds;

/// <summary>
/// An RPC request ([MS-TDS] 2.2.6.6). Every parameterised Dapper query arrives as sp_executesql (proc id 10) with
/// @stmt, @params and then the values; a statement longer than 4000 characters arrives as NTEXT.
/// </summary>
internal sealed record RpcRequest(string ProcedureName, string? Statement, IReadOnlyDictionary<string, object?> Parameters)
{
    const ushort ProcIdSwitch = 0xFFFF;
    const ushort SpExecuteSql = 10;

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

        var positional = new List<object?>();
        var named = new Dictionary<string, object?>(StringComparer.OrdinalIgnoreCase);
        while (reader.Remaining > 0)
        {
            var next = payload[reader.Position];
            if (next is 0xFF or 0xFE)
                throw new TdsProtocolException("Batched RPC requests are not supported by the simulator.");
            var name = reader.BVarChar();
            reader.Byte(); // StatusFlags
            var value = ParameterReader.ReadTypedValue(reader);
            positional.Add(value);
            if (name.Length > 0) named[name] = value;
        }

        // Any other procedure runs as the EXEC a batch would send, so the engine answers it as SQL Server does (its
        // result, or Msg 2812 and a log line for one the simulator does not model) on an open connection.
        if (!procedure.Equals("sp_executesql", StringComparison.OrdinalIgnoreCase))
        {
            var arguments = positional.Select((value, i) => ($"@rpc{i}", value)).ToList();
            var exec = $"EXEC {procedure} {string.Join(", ", arguments.Select(a => a.Item1))}".TrimEnd();
            return new RpcRequest(procedure, exec, arguments.ToDictionary(a => a.Item1, a => a.value, StringComparer.OrdinalIgnoreCase));
        }

        // sp_executesql: @stmt, @params, then the parameter values by name.
        var statement = positional.Count > 0 ? positional[0] as string : null;
        var values = new Dictionary<string, object?>(StringComparer.OrdinalIgnoreCase);
        foreach (var (key, value) in named)
            if (!key.Equals("@stmt", StringComparison.OrdinalIgnoreCase) && !key.Equals("@params", StringComparison.OrdinalIgnoreCase))
                values[key] = value;
        return new RpcRequest(procedure, statement, values);
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

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

    public static RpcRequest Parse(byte[] payload)
    {
        var reader = new PayloadReader(payload);
        SkipAllHeaders(reader);
        var nameLength = reader.UInt16();
        string procedure;
        if (nameLength == ProcIdSwitch)
        {
            var procId = reader.UInt16();
            procedure = procId == SpExecuteSql ? "sp_executesql" : $"proc#{procId}";
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

        if (!procedure.Equals("sp_executesql", StringComparison.OrdinalIgnoreCase))
            return new RpcRequest(procedure, null, named);

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

    public static string ParseSqlBatch(byte[] payload)
    {
        var reader = new PayloadReader(payload);
        SkipAllHeaders(reader);
        return Encoding.Unicode.GetString(payload, reader.Position, reader.Remaining);
    }
}

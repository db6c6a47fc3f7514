using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tds;

/// <summary>What an RPC runs: a statement with its parameters by name, or an error; and the output parameters it returns.</summary>
internal sealed record RpcPlan(string Sql, IReadOnlyDictionary<string, object?> Parameters, IReadOnlyList<RpcOutput> Outputs,
    SqlMessage? Error = null, string Procedure = "")
{
    public static RpcPlan Batch(string sql) => new(sql, new Dictionary<string, object?>(), []);
}

/// <summary>An int output parameter (a prepared handle) returned in a RETURNVALUE token.</summary>
internal sealed record RpcOutput(int Ordinal, string Name, int Value);

/// <summary>
/// The system procedures clients call over RPC, as their pages in the Transact-SQL reference define them, and the
/// statements one connection has prepared. Parameters sent without a name take the names declared in @params by
/// position, as SQL Server matches them; named ones match by name. Any other procedure runs as the EXEC a batch
/// would send (its rows, or Msg 2812 and a log line for one the engine does not model).
/// </summary>
internal sealed class RpcProcedures
{
    sealed record Prepared(string Statement, IReadOnlyList<string> ParameterNames);

    readonly Dictionary<int, Prepared> _prepared = [];
    int _lastHandle;

    public RpcPlan Plan(RpcRequest rpc) => PlanCall(rpc) with { Procedure = rpc.ProcedureName };

    RpcPlan PlanCall(RpcRequest rpc)
    {
        var parameters = rpc.Parameters;
        switch (rpc.ProcedureName.ToLowerInvariant())
        {
            case "sp_executesql":
                // sp_executesql [ @stmt = ] statement [, [ @params = ] N'@name type [, ...]', [ @name = ] value [, ...] ]
                return Bind(Text(parameters, 0) ?? "", DeclaredNames(Text(parameters, 1)), parameters.Skip(2));
            case "sp_prepare":
                // sp_prepare handle OUTPUT, params, stmt, options: the handle comes back as the output parameter.
                return RpcPlan.Batch("") with { Outputs = [Output(parameters, Prepare(parameters))] };
            case "sp_prepexec":
                // sp_prepexec handle OUTPUT, params, stmt [, bound_param ...]: prepares, then runs as sp_execute would.
            {
                var handle = Prepare(parameters);
                var prepared = _prepared[handle];
                return Bind(prepared.Statement, prepared.ParameterNames, parameters.Skip(3)) with
                {
                    Outputs = [Output(parameters, handle)],
                };
            }
            case "sp_execute":
                // sp_execute handle [, bound_param ...]
                return Find(parameters) is { } known
                    ? Bind(known.Statement, known.ParameterNames, parameters.Skip(1))
                    : UnknownHandle(parameters);
            case "sp_unprepare":
                // sp_unprepare handle
                return Find(parameters) is not null && _prepared.Remove(Handle(parameters)) ? RpcPlan.Batch("") : UnknownHandle(parameters);
            default:
                var arguments = parameters.Select((p, i) => ($"@rpc{i}", p.Value)).ToList();
                var exec = $"EXEC {rpc.ProcedureName} {string.Join(", ", arguments.Select(a => a.Item1))}".TrimEnd();
                return new RpcPlan(exec, arguments.ToDictionary(a => a.Item1, a => a.Value, StringComparer.OrdinalIgnoreCase), []);
        }
    }

    /// <summary>Handles count from 1 on each connection, as the example on the sp_prepare page shows.</summary>
    int Prepare(IReadOnlyList<RpcParameter> parameters)
    {
        var handle = ++_lastHandle;
        _prepared[handle] = new Prepared(Text(parameters, 2) ?? "", DeclaredNames(Text(parameters, 1)));
        return handle;
    }

    Prepared? Find(IReadOnlyList<RpcParameter> parameters) =>
        parameters.Count > 0 && _prepared.TryGetValue(Handle(parameters), out var prepared) ? prepared : null;

    static int Handle(IReadOnlyList<RpcParameter> parameters) =>
        parameters.Count > 0 && Plain(parameters[0]) is { } value ? Convert.ToInt32(value) : 0;

    // [U] SQL Server's state for 8179 varies between builds; the number and text are what clients check.
    static RpcPlan UnknownHandle(IReadOnlyList<RpcParameter> parameters) => RpcPlan.Batch("") with
    {
        Error = new SqlMessage(8179, 2, 16, $"Could not find prepared statement with handle {Handle(parameters)}."),
    };

    /// <summary>The handle is the first parameter; it keeps the name the client gave it (tedious matches on it).</summary>
    static RpcOutput Output(IReadOnlyList<RpcParameter> parameters, int handle) =>
        new(0, parameters.Count > 0 && parameters[0].Name.Length > 0 ? parameters[0].Name : "@handle", handle);

    static RpcPlan Bind(string statement, IReadOnlyList<string> declared, IEnumerable<RpcParameter> values)
    {
        var bound = new Dictionary<string, object?>(StringComparer.OrdinalIgnoreCase);
        var position = 0;
        foreach (var value in values)
        {
            var name = value.Name.Length > 0 ? value.Name : position < declared.Count ? declared[position] : null;
            if (name is not null) bound[name] = value.Value;
            position++;
        }
        return new RpcPlan(statement, bound, []);
    }

    static string? Text(IReadOnlyList<RpcParameter> parameters, int index) =>
        index < parameters.Count ? Plain(parameters[index]) as string : null;

    static object? Plain(RpcParameter parameter) => parameter.Value is TypedValue typed ? typed.Value : parameter.Value;

    /// <summary>The names in a parameter declaration, "@id int, @name nvarchar(128), @d decimal(18, 2) OUTPUT", in order.</summary>
    internal static IReadOnlyList<string> DeclaredNames(string? declaration)
    {
        if (string.IsNullOrWhiteSpace(declaration)) return [];
        var names = new List<string>();
        var depth = 0;
        var start = 0;
        for (var i = 0; i <= declaration.Length; i++)
        {
            var c = i < declaration.Length ? declaration[i] : ',';
            if (c == '(') depth++;
            else if (c == ')') depth--;
            else if (c == ',' && depth == 0)
            {
                var name = declaration[start..i].Trim().Split((char[]?)null, 2, StringSplitOptions.RemoveEmptyEntries).FirstOrDefault();
                if (name is not null) names.Add(name);
                start = i + 1;
            }
        }
        return names;
    }
}

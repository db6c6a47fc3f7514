using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.Tracing;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.fn_trace_gettable(filename, number_files) over the default trace's surviving files: the growth and shrink
/// events, times in server local time, Duration in microseconds, IntegerData in 8-KB pages (reference section 3).
/// A real trace has dozens of columns; these are the ones the default trace fills for file growth, in trace column
/// order.
/// </summary>
internal sealed class TraceGetTableFunction(BoundExpr path, BoundExpr? numberFiles) : VirtualTable
{
    public const string FunctionName = "fn_trace_gettable";

    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("DatabaseID", SqlType.Int),
        ResultColumn.NVarChar("HostName", 256),
        ResultColumn.NVarChar("ApplicationName", 256),
        ResultColumn.NVarChar("LoginName", 256),
        new("SPID", SqlType.Int),
        new("Duration", SqlType.BigInt),
        new("StartTime", SqlType.DateTime),
        new("EndTime", SqlType.DateTime),
        new("IntegerData", SqlType.Int),
        ResultColumn.NVarChar("ServerName", 256),
        new("EventClass", SqlType.Int),
        ResultColumn.NVarChar("DatabaseName", 256),
        ResultColumn.NVarChar("FileName", 256),
        new("IsSystem", SqlType.Int),
    ];

    private static readonly TypeSpec IntTarget = new("int", SqlType.Int);

    public override string Name => FunctionName;

    public override int ObjectId => -1100;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public static bool Names(IReadOnlyList<string> parts) =>
        string.Equals(parts[^1], FunctionName, StringComparison.OrdinalIgnoreCase)
        && (parts.Count == 1 || string.Equals(parts[^2], "sys", StringComparison.OrdinalIgnoreCase));

    /// <summary>Binds the two arguments; DEFAULT (or NULL) as number_files reads every later rollover file.</summary>
    public static TraceGetTableFunction Bind(TableSource source, BindScope scope)
    {
        var arguments = source.Arguments!;
        if (arguments.Count < 2 || arguments[0] is DefaultArgument)
        {
            throw SqlErrors.ArgumentsNotSupplied(FunctionName, source.Line);
        }

        if (arguments.Count > 2)
        {
            throw SqlErrors.TooManyArguments(FunctionName, source.Line);
        }

        var path = ExpressionBinder.Bind(arguments[0], scope);
        var count = arguments[1] is DefaultArgument ? null : ExpressionBinder.Bind(arguments[1], scope);
        return new TraceGetTableFunction(path, count);
    }

    public override IReadOnlyList<SqlMessage>? Authorize(SessionContext session) =>
        Permissions.HasAny(session, "ALTER TRACE") ? null : [SqlErrors.NoTracePermission("FN_TRACE_GETTABLE")];

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var file = path.Evaluate([]) is { } value ? SqlConvert.ToText(value) : "";
        var count = numberFiles?.Evaluate([]) is { } n ? (int?)SqlConvert.To(n, IntTarget) : null;
        // [U] a disabled default trace may leave old files on disk; the simulator treats them as gone.
        var files = DefaultTraceFiles.For(session.Instance)?.Read(file, count)
                    ?? throw SqlErrors.TraceFileNotFound(file);
        session.TraceFilesRead?.Invoke(string.Join(", ", files.Select(f => Path.GetFileName(f.Path.Replace('\\', '/')))));
        var instance = session.Instance;
        var databases = DatabaseLayout.For(instance);
        return files.SelectMany(f => f.Events).Select(e =>
        {
            var database = databases.FirstOrDefault(d => string.Equals(d.Name, e.Database, StringComparison.OrdinalIgnoreCase));
            return new object?[]
            {
                database?.Id, e.HostName, e.ApplicationName, e.LoginName, e.Spid, e.DurationMicroseconds,
                ServerClock.Local(instance, e.StartTime),
                ServerClock.Local(instance, e.StartTime.AddTicks(e.DurationMicroseconds * 10)),
                e.GrowthPages, ServerIdentity.ServerName(instance), e.EventClass, e.Database, e.FileName,
                // The trace sets IsSystem only for system sessions and leaves it NULL for user sessions.
                e.Spid < 51 ? 1 : null,
            };
        }).ToList();
    }
}

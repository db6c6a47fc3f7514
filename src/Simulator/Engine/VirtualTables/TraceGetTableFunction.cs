using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.Tracing;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.fn_trace_gettable(filename, number_files) over the default trace's surviving files: the growth and shrink
/// events, times in server local time, Duration in microseconds, IntegerData in 8-KB pages (reference section 3).
/// Every trace column, in trace column order (the column ids of sp_trace_setevent), which is the order SELECT * returns;
/// the default trace fills a few of them for file growth, the rest are NULL.
/// </summary>
internal sealed class TraceGetTableFunction(BoundExpr path, BoundExpr? numberFiles) : VirtualTable
{
    public const string FunctionName = "fn_trace_gettable";

    private static ResultColumn Text(string name) => ResultColumn.NVarChar(name, 256);

    // "sp_trace_setevent (Transact-SQL)", learn.microsoft.com/sql/relational-databases/system-stored-procedures/sp-trace-setevent-transact-sql:
    // column ids 1 to 66. [U] the types fn_trace_gettable gives them: ntext and image travel as nvarchar(max) and
    // varbinary(max) here, the rest as the trace stores them.
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        ResultColumn.NVarChar("TextData", -1),
        new("BinaryData", SqlType.VarBinary, MaxLength: -1),
        new("DatabaseID", SqlType.Int),
        new("TransactionID", SqlType.BigInt),
        new("LineNumber", SqlType.Int),
        Text("NTUserName"),
        Text("NTDomainName"),
        Text("HostName"),
        new("ClientProcessID", SqlType.Int),
        Text("ApplicationName"),
        Text("LoginName"),
        new("SPID", SqlType.Int),
        new("Duration", SqlType.BigInt),
        new("StartTime", SqlType.DateTime),
        new("EndTime", SqlType.DateTime),
        new("Reads", SqlType.BigInt),
        new("Writes", SqlType.BigInt),
        new("CPU", SqlType.Int),
        new("Permissions", SqlType.BigInt),
        new("Severity", SqlType.Int),
        new("EventSubClass", SqlType.Int),
        new("ObjectID", SqlType.Int),
        new("Success", SqlType.Int),
        new("IndexID", SqlType.Int),
        new("IntegerData", SqlType.Int),
        Text("ServerName"),
        new("EventClass", SqlType.Int),
        new("ObjectType", SqlType.Int),
        new("NestLevel", SqlType.Int),
        new("State", SqlType.Int),
        new("Error", SqlType.Int),
        new("Mode", SqlType.Int),
        new("Handle", SqlType.Int),
        Text("ObjectName"),
        Text("DatabaseName"),
        Text("FileName"),
        Text("OwnerName"),
        Text("RoleName"),
        Text("TargetUserName"),
        Text("DBUserName"),
        new("LoginSid", SqlType.VarBinary, MaxLength: -1),
        Text("TargetLoginName"),
        new("TargetLoginSid", SqlType.VarBinary, MaxLength: -1),
        new("ColumnPermissions", SqlType.Int),
        Text("LinkedServerName"),
        Text("ProviderName"),
        Text("MethodName"),
        new("RowCounts", SqlType.BigInt),
        new("RequestID", SqlType.Int),
        new("XactSequence", SqlType.BigInt),
        new("EventSequence", SqlType.BigInt),
        new("BigintData1", SqlType.BigInt),
        new("BigintData2", SqlType.BigInt),
        new("GUID", SqlType.UniqueIdentifier),
        new("IntegerData2", SqlType.Int),
        new("ObjectID2", SqlType.BigInt),
        new("Type", SqlType.Int),
        new("OwnerID", SqlType.Int),
        Text("ParentName"),
        new("IsSystem", SqlType.Int),
        new("Offset", SqlType.Int),
        new("SourceDatabaseID", SqlType.Int),
        new("SqlHandle", SqlType.VarBinary, MaxLength: -1),
        Text("SessionLoginName"),
        new("PlanHandle", SqlType.VarBinary, MaxLength: -1),
        new("GroupID", SqlType.Int),
    ];

    private static readonly int Width = Shape.Count;

    private static readonly Dictionary<string, int> Ordinals = Shape.Select((c, i) => (c.Name, i)).ToDictionary();

    private static int At(string column) => Ordinals[column];

    private static readonly TypeSpec IntTarget = new("int", SqlType.Int);

    public override string Name => FunctionName;

    public override int ObjectId => -1100;

    public override bool ExistsIn(VersionProfile profile) => !profile.IsAzureSqlDatabase;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public static bool Names(IReadOnlyList<string> parts) => SystemFunctionCall.Names(parts, FunctionName);

    /// <summary>Binds the two arguments; DEFAULT (or NULL) as number_files reads every later rollover file.</summary>
    public static TraceGetTableFunction Bind(TableSource source, BindScope scope)
    {
        var arguments = SystemFunctionCall.BindArguments(source, scope, FunctionName, count: 2, firstOptional: 1);
        return new TraceGetTableFunction(arguments[0]!, arguments[1]);
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
        long sequence = 0;
        return files.SelectMany(f => f.Events).Select(e =>
        {
            var database = databases.FirstOrDefault(d => string.Equals(d.Name, e.Database, StringComparison.OrdinalIgnoreCase));
            var row = new object?[Width];
            row[At("DatabaseID")] = database?.Id;
            row[At("HostName")] = e.HostName;
            row[At("ApplicationName")] = e.ApplicationName;
            row[At("LoginName")] = e.LoginName;
            row[At("SessionLoginName")] = e.LoginName;
            row[At("SPID")] = e.Spid;
            row[At("Duration")] = e.DurationMicroseconds;
            row[At("StartTime")] = ServerClock.Local(instance, e.StartTime);
            row[At("EndTime")] = ServerClock.Local(instance, e.StartTime.AddTicks(e.DurationMicroseconds * 10));
            row[At("IntegerData")] = e.GrowthPages;
            row[At("ServerName")] = ServerIdentity.ServerName(instance);
            row[At("EventClass")] = e.EventClass;
            row[At("DatabaseName")] = e.Database;
            row[At("FileName")] = e.FileName;
            row[At("EventSequence")] = ++sequence;
            // The trace sets IsSystem only for system sessions and leaves it NULL for user sessions.
            row[At("IsSystem")] = e.Spid < 51 ? 1 : null;
            return row;
        }).ToList();
    }
}

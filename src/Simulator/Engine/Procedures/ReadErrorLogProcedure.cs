using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Procedures;

/// <summary>
/// sp_readerrorlog @p1 log number (0 current), @p2 log type (1 SQL Server, 2 Agent), @p3 and @p4 search strings
/// that must both occur (case-insensitive). Returns LogDate, ProcessInfo, Text oldest first.
/// </summary>
internal static class ReadErrorLogProcedure
{
    public const string ProcedureName = "sp_readerrorlog";
    public const int ParameterCount = 4;

    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("LogDate", SqlType.DateTime),
        ResultColumn.NVarChar("ProcessInfo", 50),
        ResultColumn.NVarChar("Text", 4000),
    ];

    private static readonly TypeSpec IntTarget = new("int", SqlType.Int);

    /// <summary>sp_ procedures resolve from master whatever database or schema (dbo, sys) the call names.</summary>
    public static bool Names(IReadOnlyList<string> parts) =>
        string.Equals(parts[^1], ProcedureName, StringComparison.OrdinalIgnoreCase)
        && (parts.Count == 1 || parts[^2].Length == 0
            || string.Equals(parts[^2], "dbo", StringComparison.OrdinalIgnoreCase)
            || string.Equals(parts[^2], "sys", StringComparison.OrdinalIgnoreCase));

    public static BatchItem Run(SessionContext session, IReadOnlyList<object?> arguments, int line)
    {
        // [U] From 2022 the documented permission is VIEW ANY ERROR LOG; before, VIEW SERVER STATE. securityadmin
        // members pass on every build, as the procedure's own check names that role.
        var permission = session.Profile.Major >= 16 ? "VIEW ANY ERROR LOG" : "VIEW SERVER STATE";
        if (!Permissions.HasAny(session, permission, "securityadmin"))
        {
            throw new QueryException(SqlErrors.ErrorLogDenied(line), abortsBatch: false, unknownToSimulator: false);
        }

        var logNumber = Argument(arguments, 0) is { } number ? (int)SqlConvert.To(number, IntTarget)! : 0;
        var logType = Argument(arguments, 1) is { } type ? (int)SqlConvert.To(type, IntTarget)! : 1;
        var searches = new[] { Argument(arguments, 2), Argument(arguments, 3) }
            .Where(s => s is not null)
            .Select(s => SqlConvert.ToText(s!))
            .ToList();

        // The Agent log (type 2) holds nothing the simulator models.
        var lines = logType == 1 ? ErrorLogLines.For(session, logNumber) : [];
        var rows = lines
            .Where(l => searches.All(s => l.Text.Contains(s, StringComparison.OrdinalIgnoreCase)))
            .Select(l => new object?[] { l.LogDate, l.ProcessInfo, l.Text })
            .ToList();
        return new ResultSet(Shape, rows);
    }

    private static object? Argument(IReadOnlyList<object?> arguments, int index) =>
        index < arguments.Count ? arguments[index] : null;
}

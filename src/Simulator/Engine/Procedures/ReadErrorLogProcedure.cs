using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Procedures;

/// <summary>
/// sp_readerrorlog @p1 log number (0 current), @p2 log type (1 SQL Server, 2 Agent), @p3 and @p4 search strings
/// that must both occur (case-insensitive), and the extended procedure xp_readerrorlog it calls, with the same first
/// four parameters. Both return LogDate, ProcessInfo, Text oldest first.
/// </summary>
internal static class ReadErrorLogProcedure
{
    public const string ProcedureName = "sp_readerrorlog";
    public const string ExtendedProcedureName = "xp_readerrorlog";
    public const int ParameterCount = 4;

    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("LogDate", SqlType.DateTime),
        ResultColumn.NVarChar("ProcessInfo", 50),
        ResultColumn.NVarChar("Text", 4000),
    ];

    private static readonly TypeSpec IntTarget = new("int", SqlType.Int);

    /// <summary>sp_ and xp_ procedures resolve from master whatever database or schema (dbo, sys) the call names.</summary>
    public static bool Names(IReadOnlyList<string> parts) => NameOf(parts) is not null;

    /// <summary>Which of the two the call names, or null.</summary>
    public static string? NameOf(IReadOnlyList<string> parts)
    {
        var name = new[] { ProcedureName, ExtendedProcedureName }
            .FirstOrDefault(n => string.Equals(parts[^1], n, StringComparison.OrdinalIgnoreCase));
        var schemaFits = parts.Count == 1 || parts[^2].Length == 0
            || string.Equals(parts[^2], "dbo", StringComparison.OrdinalIgnoreCase)
            || string.Equals(parts[^2], "sys", StringComparison.OrdinalIgnoreCase);
        return schemaFits ? name : null;
    }

    public static BatchItem Run(SessionContext session, string procedure, IReadOnlyList<object?> arguments, int line)
    {
        if (Refusal(session, procedure, line) is { } refused)
        {
            throw new QueryException(refused, abortsBatch: false, unknownToSimulator: false);
        }

        var logNumber = Argument(arguments, 0) is { } number ? (int)SqlConvert.To(number, IntTarget)! : 0;
        var logType = Argument(arguments, 1) is { } type ? (int)SqlConvert.To(type, IntTarget)! : 1;
        if (!ErrorLogLines.Exists(session.Instance, logNumber))
        {
            throw new QueryException(SqlErrors.ErrorLogNotFound(line), abortsBatch: false, unknownToSimulator: false);
        }

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

    /// <summary>
    /// From 2022 both check VIEW ANY ERROR LOG. Before, sp_readerrorlog checks VIEW SERVER STATE as Microsoft's page
    /// says, or securityadmin membership as published copies of its body do (the scenario picks; both raise 15003),
    /// and xp_readerrorlog checks EXECUTE on itself (Msg 229). [U] which one a given build runs.
    /// </summary>
    private static SqlMessage? Refusal(SessionContext session, string procedure, int line)
    {
        if (session.Profile.Major >= 16)
        {
            return Permissions.HasAny(session, "VIEW ANY ERROR LOG", "securityadmin") ? null : SqlErrors.ErrorLogDenied(line);
        }

        if (procedure == ExtendedProcedureName)
        {
            return Permissions.HasAny(session, "EXECUTE ON xp_readerrorlog")
                ? null
                : SqlErrors.ExecuteDenied(ExtendedProcedureName, line);
        }

        string[] sufficient = session.Instance.ReadErrorLogCheck == ReadErrorLogCheck.SecurityAdminRole
            ? ["securityadmin"]
            : ["VIEW SERVER STATE", "securityadmin"];
        return Permissions.HasAny(session, sufficient) ? null : SqlErrors.ErrorLogDenied(line);
    }

    private static object? Argument(IReadOnlyList<object?> arguments, int index) =>
        index < arguments.Count ? arguments[index] : null;
}

using System.Globalization;
using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Procedures;

/// <summary>
/// DBCC TRACESTATUS, the one DBCC command a collector sends (trace flags 1805/1806 and IFI). Any other command is
/// Msg 2526 and a log line.
/// </summary>
internal static class DbccCommands
{
    // [U] the column types; the names and meaning are Microsoft's (DBCC TRACESTATUS).
    private static readonly IReadOnlyList<ResultColumn> TraceStatusShape =
    [
        new("TraceFlag", SqlType.Int, Nullable: false),
        new("Status", SqlType.Int, Nullable: false),
        new("Global", SqlType.Int, Nullable: false),
        new("Session", SqlType.Int, Nullable: false),
    ];

    /// <summary>The steps the statement runs: its result, then the completion line unless WITH NO_INFOMSGS.</summary>
    public static IEnumerable<Func<BatchItem>> Bind(DbccStatement dbcc, BindScope scope)
    {
        if (dbcc.Command != "TRACESTATUS")
        {
            throw SqlErrors.UnknownDbcc(dbcc.Command, dbcc.Line);
        }

        var arguments = dbcc.Arguments.Select(a => ExpressionBinder.Bind(a, scope)).ToList();
        var steps = new List<Func<BatchItem>>
        {
            () => TraceStatus(scope, arguments),
        };
        if (!dbcc.Options.Contains("NO_INFOMSGS"))
        {
            steps.Add(() => SqlErrors.DbccCompleted(dbcc.Line));
        }

        return steps;
    }

    private static ResultSet TraceStatus(BindScope scope, IReadOnlyList<BoundExpr> arguments)
    {
        // Requires only membership in public [D]. -1 (or no argument) lists every flag on globally; named flags list
        // those, on or off.
        var asked = arguments.Select(a => Convert.ToInt32(a.Evaluate([]), CultureInfo.InvariantCulture)).ToList();
        var global = scope.Session.Instance.GlobalTraceFlags;
        var rows = asked.Count == 0 || asked.Contains(-1)
            ? global.Order().Select(f => new object?[] { f, 1, 1, 0 })
            : asked.Select(f => new object?[] { f, global.Contains(f) ? 1 : 0, global.Contains(f) ? 1 : 0, 0 });
        return new ResultSet(TraceStatusShape, [.. rows]);
    }
}

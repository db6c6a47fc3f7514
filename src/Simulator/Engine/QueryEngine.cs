using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.Procedures;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine;

/// <summary>
/// A small SELECT and EXEC interpreter over modelled system views and procedures. It answers only what it understands; everything else is
/// a SQL Server-numbered error plus a log line, so a collector query the simulator does not know fails tests loudly
/// instead of passing on an empty result.
/// </summary>
/// <param name="log">Where statements the simulator does not know are reported.</param>
/// <param name="clock">What SYSDATETIMEOFFSET() and friends read; the system clock unless a test fixes it.</param>
public sealed class QueryEngine(Action<string>? log = null, TimeProvider? clock = null) : IQueryEngine
{
    public void Log(string message) => log?.Invoke(message);

    public BatchResult Execute(string sql, IReadOnlyDictionary<string, object?> parameters, SessionContext session)
    {
        ArgumentNullException.ThrowIfNull(sql);
        ArgumentNullException.ThrowIfNull(parameters);
        ArgumentNullException.ThrowIfNull(session);

        if (session.Instance.Faults.ErrorNumber != 0)
        {
            return new BatchResult(SqlErrors.Fault(session.Instance.Faults.ErrorNumber, session));
        }

        List<Func<IReadOnlyList<BatchItem>>> steps;
        try
        {
            var scope = new BindScope(session, parameters) { Clock = clock ?? TimeProvider.System };
            steps = [.. Parser.ParseBatch(sql).SelectMany(statement => Compile(statement, scope))];
        }
        catch (QueryException e)
        {
            // Parse and bind errors stop the batch before any statement runs, as compile errors do on SQL Server.
            Report(e, sql, session);
            return new BatchResult(e.Messages);
        }

        var items = new List<BatchItem>();
        foreach (var step in steps)
        {
            try
            {
                items.AddRange(step());
            }
            catch (QueryException e)
            {
                Report(e, sql, session);
                items.AddRange(e.Messages);
                if (e.AbortsBatch)
                {
                    break;
                }
            }
        }

        return new BatchResult(items);
    }

    /// <summary>What runs one statement; each step runs when the steps before it have run (USE, BEGIN TRAN, IF see their effects).</summary>
    private static List<Func<IReadOnlyList<BatchItem>>> Compile(Statement statement, BindScope scope)
    {
        var session = scope.Session;
        switch (statement)
        {
            case SelectStatement select:
                var compiled = SelectCompiler.Compile(select, scope);
                return [() => [compiled.Execute(session)]];
            case ExecStatement exec:
                var procedure = ProcedureCatalog.Bind(exec, scope);
                return [() => [procedure()]];
            case DbccStatement dbcc:
                return [.. DbccCommands.Bind(dbcc, scope).Select(step => (Func<IReadOnlyList<BatchItem>>)(() => [step()]))];
            case UseStatement use:
                return [() => [SessionStatements.Use(use, session)]];
            case TransactionStatement transaction:
                return [() => [SessionStatements.Transaction(transaction, session)]];
            case IfStatement conditional:
                var tests = conditional.Conditions.Select(c => ConditionBinder.Bind(c, scope)).ToList();
                var then = Compile(conditional.Then, scope);
                var otherwise = conditional.Else is null ? [] : Compile(conditional.Else, scope);
                return [() => [.. (tests.All(test => test([]) == true) ? then : otherwise).SelectMany(step => step())]];
            default:
                return [() => [new StatementDone()]];
        }
    }

    private void Report(QueryException error, string sql, SessionContext session)
    {
        if (!error.UnknownToSimulator || log is null)
        {
            return;
        }

        var first = error.Messages[0];
        var statement = string.Join(' ', sql.Split((char[]?)null, StringSplitOptions.RemoveEmptyEntries));
        log($"simulator: {session.Instance.Name} does not know statement: {statement} (Msg {first.Number}: {first.Text})");
    }
}

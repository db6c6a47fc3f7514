using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine;

/// <summary>The logged-in session a statement runs in.</summary>
public sealed record SessionContext(ScenarioInstance Instance, VersionProfile Profile, ScenarioLogin Login, string Database)
{
    /// <summary>The current database: the login's, until a USE changes it (what DB_NAME() reads).</summary>
    public string Database { get; set; } = Database;

    /// <summary>BEGIN TRAN nesting, as @@TRANCOUNT reads it; the simulator changes nothing, so there is nothing to undo.</summary>
    public int TransactionCount { get; set; }

    /// <summary>The outermost transaction's descriptor ([MS-TDS] 2.2.7.9, ENVCHANGE type 8); 0 outside a transaction.</summary>
    public long TransactionDescriptor { get; set; }

    /// <summary>The number of transactions this session has begun: the next descriptor.</summary>
    public long TransactionsBegun { get; set; }

    /// <summary>Told the trace files each fn_trace_gettable read, so tests see how much of the trace a poll scans.</summary>
    public Action<string>? TraceFilesRead { get; init; }
}

/// <summary>
/// Answers T-SQL text the way the instance's version profile would. A statement it does not know produces a loud
/// error (and a log line naming it) so that drift between the collector and the simulator fails tests.
/// </summary>
public interface IQueryEngine
{
    /// <param name="sql">The batch text, or the @stmt of sp_executesql.</param>
    /// <param name="parameters">sp_executesql parameters by name including the '@'; empty for a plain batch.</param>
    BatchResult Execute(string sql, IReadOnlyDictionary<string, object?> parameters, SessionContext session);

    /// <summary>A loud line about something a client did that a test should see (standard error by default).</summary>
    void Log(string message);
}

namespace IfiDashboard.Simulator.Engine.Parsing;

internal abstract record Statement(int Line);

/// <summary>A SET option statement; it only has to be accepted, the simulator keeps no session options.</summary>
internal sealed record SetStatement(string Option, int Line) : Statement(Line);

internal sealed record SelectStatement(
    Expr? Top,
    IReadOnlyList<SelectItem> Items,
    TableSource? From,
    IReadOnlyList<Condition> Where,
    IReadOnlyList<OrderItem> OrderBy,
    int Line) : Statement(Line);

/// <summary>Either <c>*</c> / <c>alias.*</c> (<see cref="Expr"/> null) or an expression with its optional alias.</summary>
internal sealed record SelectItem(Expr? Expr, string? Alias, string? StarQualifier = null)
{
    public bool IsStar => Expr is null;
}

/// <summary>
/// A FROM object; <see cref="WrittenName"/> is the name as typed, without brackets, for Msg 208.
/// <see cref="Arguments"/> is set for a table-valued function call such as <c>sys.fn_trace_gettable(@path, DEFAULT)</c>.
/// </summary>
internal sealed record TableSource(
    IReadOnlyList<string> NameParts, string WrittenName, string? Alias, int Line, IReadOnlyList<Expr>? Arguments = null);

/// <summary><c>EXEC name arg, ...</c>: a stored procedure call with positional arguments.</summary>
internal sealed record ExecStatement(IReadOnlyList<string> NameParts, string WrittenName, IReadOnlyList<Expr> Arguments, int Line)
    : Statement(Line);

internal sealed record OrderItem(Expr Expr, bool Descending);

/// <summary><c>DBCC command [(arg, ...)] [WITH option, ...]</c>.</summary>
internal sealed record DbccStatement(string Command, IReadOnlyList<Expr> Arguments, IReadOnlyList<string> Options, int Line)
    : Statement(Line);

/// <summary><c>USE database</c>: changes the session's current database.</summary>
internal sealed record UseStatement(string Database, int Line) : Statement(Line);

internal enum TransactionAction
{
    Begin,
    Commit,
    Rollback,
}

/// <summary><c>BEGIN TRAN</c>, <c>COMMIT</c> and <c>ROLLBACK</c> (any spelling, with or without a transaction name).</summary>
internal sealed record TransactionStatement(TransactionAction Action, int Line) : Statement(Line);

/// <summary><c>IF predicate [AND ...] statement [ELSE statement]</c>, as client libraries send it ("IF @@TRANCOUNT > 0 COMMIT TRAN").</summary>
internal sealed record IfStatement(IReadOnlyList<Condition> Conditions, Statement Then, Statement? Else, int Line) : Statement(Line);

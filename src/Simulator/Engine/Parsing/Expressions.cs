using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Parsing;

internal abstract record Expr(int Line);

internal sealed record ColumnRef(string? Qualifier, string Name, int Line) : Expr(Line)
{
    public string Display => Qualifier is null ? Name : $"{Qualifier}.{Name}";
}

internal sealed record StringLiteral(string Value, bool IsUnicode, int Line) : Expr(Line);

internal sealed record NumberLiteral(long Value, int Line) : Expr(Line);

internal sealed record NullLiteral(int Line) : Expr(Line);

/// <summary>The DEFAULT keyword in a function or procedure argument list.</summary>
internal sealed record DefaultArgument(int Line) : Expr(Line);

/// <summary>A parameter (<c>@name</c>) or a system function spelled as a variable (<c>@@VERSION</c>).</summary>
internal sealed record VariableRef(string Name, int Line) : Expr(Line);

/// <summary>A built-in function call; <see cref="Star"/> is COUNT(*).</summary>
internal sealed record FunctionCall(string Name, IReadOnlyList<Expr> Arguments, bool Star, int Line) : Expr(Line);

internal sealed record CastExpr(Expr Operand, TypeSpec Target, int Line) : Expr(Line);

/// <summary>A T-SQL type name resolved to the shape its values take on the wire.</summary>
internal sealed record TypeSpec(string Name, SqlType Type, int MaxLength = 0, byte Precision = 0, byte Scale = 0);

internal abstract record Condition(int Line);

internal sealed record Comparison(Expr Left, string Operator, Expr Right, int Line) : Condition(Line);

internal sealed record IsNullCondition(Expr Operand, bool Negated, int Line) : Condition(Line);

internal sealed record LikeCondition(Expr Operand, Expr Pattern, bool Negated, int Line) : Condition(Line);

internal sealed record InCondition(Expr Operand, IReadOnlyList<Expr> Values, bool Negated, int Line) : Condition(Line);

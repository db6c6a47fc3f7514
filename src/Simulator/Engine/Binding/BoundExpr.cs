using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>The static shape of an expression's values: what the result-set metadata will say about them.</summary>
internal sealed record ValueShape(SqlType Type, bool Nullable, int MaxLength = 0, byte Precision = 0, byte Scale = 0)
{
    public static ValueShape Of(ResultColumn column) =>
        new(column.Type, column.Nullable, column.MaxLength, column.Precision, column.Scale);

    public ResultColumn ToColumn(string name) => new(name, Type, Nullable, MaxLength, Precision, Scale);
}

/// <summary>
/// A checked expression: its shape and how to evaluate it against one source row. <see cref="Aggregate"/> is set for
/// aggregates, which evaluate over all filtered rows instead. <see cref="FirstColumn"/> names a column the expression
/// reads, if any, for the "not in an aggregate" check.
/// </summary>
internal sealed record BoundExpr(
    ValueShape Shape,
    Func<object?[], object?> Evaluate,
    string? FirstColumn = null,
    Func<IReadOnlyList<object?[]>, object?>? Aggregate = null)
{
    public bool IsAggregate => Aggregate is not null;
}

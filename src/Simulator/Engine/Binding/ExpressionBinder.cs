using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>Checks an expression against its scope and compiles it to a shape plus an evaluator.</summary>
internal static class ExpressionBinder
{
    private static readonly ValueShape IntNotNull = new(SqlType.Int, Nullable: false);

    public static BoundExpr Bind(Expr expr, BindScope scope) => expr switch
    {
        ColumnRef column => Column(column, scope),
        StringLiteral s => new BoundExpr(new ValueShape(SqlType.NVarChar, false, Math.Max(1, s.Value.Length)), _ => s.Value),
        NumberLiteral n when n.Value is >= int.MinValue and <= int.MaxValue =>
            new BoundExpr(IntNotNull, _ => (int)n.Value),
        NumberLiteral n => new BoundExpr(new ValueShape(SqlType.BigInt, false), _ => n.Value),
        // SQL Server types a bare NULL as a nullable int.
        NullLiteral => new BoundExpr(new ValueShape(SqlType.Int, true), _ => null),
        VariableRef v when v.Name.StartsWith("@@", StringComparison.Ordinal) => SystemFunctions.Variable(v, scope),
        VariableRef v => Parameter(v, scope),
        FunctionCall call => SystemFunctions.Call(call, scope),
        CastExpr cast => Cast(cast, scope),
        // DEFAULT only means something as a whole argument of a function or procedure, which bind it themselves.
        DefaultArgument d => throw SqlErrors.Syntax("DEFAULT", d.Line),
        _ => throw new InvalidOperationException($"Unhandled expression {expr.GetType().Name}."),
    };

    private static BoundExpr Column(ColumnRef column, BindScope scope)
    {
        if (column.Qualifier is not null && !scope.Accepts(column.Qualifier))
        {
            throw SqlErrors.UnboundMultiPart(column.Display, column.Line);
        }

        var columns = scope.Columns;
        for (var i = 0; i < columns.Count; i++)
        {
            if (string.Equals(columns[i].Name, column.Name, StringComparison.OrdinalIgnoreCase))
            {
                var index = i;
                return new BoundExpr(ValueShape.Of(columns[i]), row => row[index], columns[i].Name);
            }
        }

        var knownElsewhere = scope.Table?.HasColumnOnSomeBuild(column.Name) ?? false;
        throw SqlErrors.InvalidColumn(column.Name, column.Line, unknownToSimulator: !knownElsewhere);
    }

    private static BoundExpr Parameter(VariableRef variable, BindScope scope)
    {
        var value = scope.Parameter(variable.Name, variable.Line);
        if (value is TypedValue typed)
        {
            return new BoundExpr(new ValueShape(typed.Type, true, typed.MaxLength, typed.Precision, typed.Scale), _ => typed.Value);
        }

        return new BoundExpr(ShapeOfParameter(value), _ => value);
    }

    // A value without its declared type (the engine's own callers) is typed from its CLR type.
    private static ValueShape ShapeOfParameter(object? value) => value switch
    {
        string s => new ValueShape(SqlType.NVarChar, true, s.Length > 4000 ? -1 : 4000),
        int => new ValueShape(SqlType.Int, true),
        long => new ValueShape(SqlType.BigInt, true),
        short => new ValueShape(SqlType.SmallInt, true),
        byte => new ValueShape(SqlType.TinyInt, true),
        bool => new ValueShape(SqlType.Bit, true),
        DateTime => new ValueShape(SqlType.DateTime2, true, Scale: 7),
        DateTimeOffset => new ValueShape(SqlType.DateTimeOffset, true, Scale: 7),
        decimal => new ValueShape(SqlType.Decimal, true, Precision: 38, Scale: 10),
        _ => new ValueShape(SqlType.NVarChar, true, 4000),
    };

    private static BoundExpr Cast(CastExpr cast, BindScope scope)
    {
        var operand = Bind(cast.Operand, scope);
        var target = cast.Target;
        // sysname is declared NOT NULL, but a CAST keeps the nullability of what it converts.
        var shape = new ValueShape(target.Type, operand.Shape.Nullable, target.MaxLength, target.Precision, target.Scale);
        if (operand.Aggregate is { } aggregate)
        {
            return new BoundExpr(shape, _ => null, Aggregate: rows => SqlConvert.To(aggregate(rows), target));
        }

        return new BoundExpr(shape, row => SqlConvert.To(operand.Evaluate(row), target), operand.FirstColumn);
    }
}

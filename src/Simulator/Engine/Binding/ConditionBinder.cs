using IfiDashboard.Simulator.Engine.Parsing;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>Compiles WHERE predicates to three-valued tests (null = unknown; only true keeps a row).</summary>
internal static class ConditionBinder
{
    public static Func<object?[], bool?> Bind(Condition condition, BindScope scope) => condition switch
    {
        Comparison c => Compare(c, scope),
        IsNullCondition c => IsNull(c, scope),
        LikeCondition c => Like(c, scope),
        InCondition c => In(c, scope),
        _ => throw new InvalidOperationException($"Unhandled condition {condition.GetType().Name}."),
    };

    private static Func<object?[], bool?> Compare(Comparison comparison, BindScope scope)
    {
        var left = Operand(comparison.Left, scope);
        var right = Operand(comparison.Right, scope);
        Func<int, bool> test = comparison.Operator switch
        {
            "=" => r => r == 0,
            "<>" or "!=" => r => r != 0,
            "<" => r => r < 0,
            ">" => r => r > 0,
            "<=" => r => r <= 0,
            ">=" => r => r >= 0,
            _ => throw SqlErrors.Syntax(comparison.Operator, comparison.Line),
        };
        return row => SqlCompare.Compare(left.Evaluate(row), right.Evaluate(row)) is { } result ? test(result) : null;
    }

    private static Func<object?[], bool?> IsNull(IsNullCondition condition, BindScope scope)
    {
        var operand = Operand(condition.Operand, scope);
        return row => (operand.Evaluate(row) is null) != condition.Negated;
    }

    private static Func<object?[], bool?> Like(LikeCondition condition, BindScope scope)
    {
        var operand = Operand(condition.Operand, scope);
        var pattern = Operand(condition.Pattern, scope);
        return row =>
        {
            var value = operand.Evaluate(row);
            var mask = pattern.Evaluate(row);
            if (value is null || mask is null)
            {
                return null;
            }

            return LikePattern.IsMatch(SqlConvert.ToText(value), SqlConvert.ToText(mask)) != condition.Negated;
        };
    }

    private static Func<object?[], bool?> In(InCondition condition, BindScope scope)
    {
        var operand = Operand(condition.Operand, scope);
        var values = condition.Values.Select(v => Operand(v, scope)).ToList();
        return row =>
        {
            var value = operand.Evaluate(row);
            var sawUnknown = false;
            foreach (var candidate in values)
            {
                var result = SqlCompare.Compare(value, candidate.Evaluate(row));
                if (result == 0)
                {
                    return !condition.Negated;
                }

                sawUnknown |= result is null;
            }

            return sawUnknown ? null : condition.Negated;
        };
    }

    private static BoundExpr Operand(Expr expr, BindScope scope)
    {
        var bound = ExpressionBinder.Bind(expr, scope);
        // An aggregate in WHERE is Msg 147 on SQL Server.
        return bound.IsAggregate
            ? throw new QueryException(new Results.SqlMessage(147, 1, 15,
                "An aggregate may not appear in the WHERE clause unless it is in a subquery contained in a HAVING " +
                "clause or a select list, and the column being aggregated is an outer reference.", expr.Line))
            : bound;
    }
}

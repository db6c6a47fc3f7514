using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>
/// Comparison with SQL Server's rules as far as the modelled queries need them: NULL compares as unknown, numbers
/// beat strings (the string is converted), and strings compare as the case-insensitive default collation does.
/// </summary>
internal static class SqlCompare
{
    private static readonly TypeSpec NumericTarget = new("int", SqlType.Int);

    /// <summary>Null when either side is NULL: the comparison is then unknown, which filters the row out.</summary>
    public static int? Compare(object? left, object? right)
    {
        left = left is VariantValue l ? l.Value : left;
        right = right is VariantValue r ? r.Value : right;
        if (left is null || right is null)
        {
            return null;
        }

        if (SqlConvert.IsNumber(left) || SqlConvert.IsNumber(right))
        {
            return SqlConvert.ToDecimal(left, NumericTarget).CompareTo(SqlConvert.ToDecimal(right, NumericTarget));
        }

        if (left is DateTime or DateTimeOffset || right is DateTime or DateTimeOffset)
        {
            return SqlConvert.ToDateTimeOffset(left).CompareTo(SqlConvert.ToDateTimeOffset(right));
        }

        // The default collation is case-insensitive and ignores trailing spaces.
        return string.Compare(
            SqlConvert.ToText(left).TrimEnd(' '), SqlConvert.ToText(right).TrimEnd(' '), StringComparison.OrdinalIgnoreCase);
    }

    /// <summary>ORDER BY order: NULL sorts before every value, as on SQL Server.</summary>
    public static int CompareForSort(object? left, object? right)
    {
        var leftNull = left is null;
        var rightNull = right is null;
        if (leftNull || rightNull)
        {
            return leftNull.CompareTo(rightNull) * -1;
        }

        return Compare(left, right) ?? 0;
    }
}

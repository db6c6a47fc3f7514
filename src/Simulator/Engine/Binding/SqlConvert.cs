using System.Globalization;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>CAST/CONVERT semantics over the CLR values result rows carry.</summary>
internal static class SqlConvert
{
    public static object? To(object? value, TypeSpec target)
    {
        if (value is VariantValue variant)
        {
            value = variant.Value;
        }

        if (value is null)
        {
            return null;
        }

        return target.Type switch
        {
            SqlType.NVarChar => Truncate(ToText(value), target.MaxLength),
            SqlType.Int => Checked(target, () => (object)checked((int)ToInteger(value, target))),
            SqlType.BigInt => ToInteger(value, target),
            SqlType.SmallInt => Checked(target, () => (object)checked((short)ToInteger(value, target))),
            SqlType.TinyInt => Checked(target, () => (object)checked((byte)ToInteger(value, target))),
            SqlType.Bit => value is string s && bool.TryParse(s.Trim(), out var flag) ? flag : ToInteger(value, target) != 0,
            SqlType.DateTime or SqlType.DateTime2 => ToDateTimeOffset(value).DateTime,
            SqlType.DateTimeOffset => ToDateTimeOffset(value),
            SqlType.Decimal => Math.Round(ToDecimal(value, target), target.Scale),
            _ => throw new InvalidOperationException($"Cannot convert to {target.Name}."),
        };
    }

    /// <summary>The text SQL Server produces when converting a value to nvarchar with the default style.</summary>
    public static string ToText(object value) => value switch
    {
        VariantValue v => ToText(v.Value),
        string s => s,
        bool b => b ? "1" : "0",
        DateTime d => d.ToString("yyyy-MM-dd HH:mm:ss.fff", CultureInfo.InvariantCulture),
        DateTimeOffset d => d.ToString("yyyy-MM-dd HH:mm:ss.fffffff zzz", CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    public static bool IsNumber(object value) => value is int or long or short or byte or bool or decimal;

    public static decimal ToDecimal(object value, TypeSpec target) => value switch
    {
        bool b => b ? 1 : 0,
        string s => decimal.TryParse(s.Trim(), NumberStyles.Number, CultureInfo.InvariantCulture, out var d)
            ? d
            : throw SqlErrors.ConversionFailed("nvarchar", s, target.Name),
        _ when IsNumber(value) => Convert.ToDecimal(value, CultureInfo.InvariantCulture),
        _ => throw SqlErrors.ConversionFailed(TypeName(value), ToText(value), target.Name),
    };

    private static long ToInteger(object value, TypeSpec target)
    {
        if (value is string s && !long.TryParse(s.Trim(), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out _))
        {
            throw SqlErrors.ConversionFailed("nvarchar", s, target.Name);
        }

        return Checked(target, () => (long)decimal.Truncate(ToDecimal(value, target)));
    }

    public static DateTimeOffset ToDateTimeOffset(object value) => value switch
    {
        DateTimeOffset d => d,
        DateTime d => new DateTimeOffset(DateTime.SpecifyKind(d, DateTimeKind.Unspecified), TimeSpan.Zero),
        string s when DateTimeOffset.TryParse(s.Trim(), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var d) => d,
        _ => throw new QueryException(new SqlMessage(241, 1, 16,
            "Conversion failed when converting date and/or time from character string.")),
    };

    private static T Checked<T>(TypeSpec target, Func<T> convert)
    {
        try
        {
            return convert();
        }
        catch (OverflowException)
        {
            throw SqlErrors.Overflow(target.Name);
        }
    }

    private static string Truncate(string text, int maxLength) =>
        maxLength > 0 && text.Length > maxLength ? text[..maxLength] : text;

    private static string TypeName(object value) => value switch
    {
        DateTime => "datetime",
        DateTimeOffset => "datetimeoffset",
        _ => "nvarchar",
    };
}

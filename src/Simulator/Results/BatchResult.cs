namespace IfiDashboard.Simulator.Results;

/// <summary>What a batch or RPC produced, in order: result sets, informational messages and errors.</summary>
public sealed record BatchResult(IReadOnlyList<BatchItem> Items)
{
    public static BatchResult Of(params BatchItem[] items) => new(items);
}

public abstract record BatchItem;

/// <summary>
/// Rows hold CLR values matching the column type: string, int, long, short, byte, bool, DateTime, DateTimeOffset,
/// decimal; for sql_variant a <see cref="VariantValue"/>; null for NULL.
/// </summary>
public sealed record ResultSet(IReadOnlyList<ResultColumn> Columns, IReadOnlyList<object?[]> Rows) : BatchItem;

/// <summary>An ERROR token (or INFO when <see cref="Severity"/> is 10 or less), as SQL Server numbers them.</summary>
public sealed record SqlMessage(int Number, byte State, byte Severity, string Text, int LineNumber = 1) : BatchItem
{
    public bool IsError => Severity > 10;
}

/// <summary>A statement without a result set (SET options and the like): a DONE with no row count.</summary>
public sealed record StatementDone(long? RowCount = null) : BatchItem;

/// <summary>A sql_variant value: the base type decides how the value is encoded.</summary>
public sealed record VariantValue(SqlType BaseType, object Value);

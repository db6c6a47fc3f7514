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

/// <summary>USE changed the session's database: an ENVCHANGE (type 1) and Msg 5701, as at login.</summary>
public sealed record DatabaseChanged(string Database, string Previous) : BatchItem;

public enum TransactionEvent
{
    Began,
    Committed,
    RolledBack,
}

/// <summary>
/// The outermost transaction began or ended: an ENVCHANGE of type 8, 9 or 10 with its descriptor ([MS-TDS] 2.2.7.9),
/// which a TDS 7.2+ client sends back in the ALL_HEADERS of its later requests.
/// </summary>
public sealed record TransactionChanged(TransactionEvent Event, long Descriptor) : BatchItem;

/// <summary>
/// An RPC parameter's value with the type its TYPE_INFO declared ([MS-TDS] 2.2.5.4): selected back, it is that type.
/// <see cref="MaxLength"/> is in characters for nvarchar/nchar, in bytes for varchar/char/varbinary/binary, -1 for max.
/// </summary>
public sealed record TypedValue(SqlType Type, object? Value, int MaxLength = 0, byte Precision = 0, byte Scale = 0);

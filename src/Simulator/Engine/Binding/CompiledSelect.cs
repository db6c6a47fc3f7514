using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.VirtualTables;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>An ORDER BY key, read from the source row or from the projected output row.</summary>
internal sealed record SortKey(Func<object?[], object?[], object?> Read, bool Descending);

/// <summary>A bound SELECT, ready to run: permission check, scan, filter, sort, TOP, projection.</summary>
internal sealed class CompiledSelect(
    VirtualTable? table,
    IReadOnlyList<ResultColumn> columns,
    IReadOnlyList<BoundExpr> items,
    IReadOnlyList<Func<object?[], bool?>> where,
    IReadOnlyList<SortKey> order,
    BoundExpr? top)
{
    private static readonly TypeSpec BigInt = new("bigint", SqlType.BigInt);

    public IReadOnlyList<ResultColumn> Columns => columns;

    public ResultSet Execute(SessionContext session)
    {
        if (table?.Authorize(session) is { } denied)
        {
            // Permission errors end the statement only; the batch goes on, as on SQL Server.
            throw new QueryException(denied, abortsBatch: false, unknownToSimulator: false);
        }

        // A SELECT without FROM evaluates its list once, against an empty row.
        var source = table is null ? [[]] : table.Rows(session).ToList();
        var rows = source.Where(row => where.All(test => test(row) == true)).ToList();
        var limit = Limit();

        if (items.Any(i => i.IsAggregate))
        {
            object?[] output = [.. items.Select(i => i.IsAggregate ? i.Aggregate!(rows) : i.Evaluate(rows.FirstOrDefault() ?? []))];
            return new ResultSet(columns, limit > 0 ? [output] : []);
        }

        var projected = rows.Select(row => (Source: row, Output: items.Select(i => i.Evaluate(row)).ToArray())).ToList();
        if (order.Count > 0)
        {
            projected.Sort((a, b) => CompareRows(a.Source, a.Output, b.Source, b.Output));
        }

        return new ResultSet(columns, projected.Take((int)Math.Min(limit, int.MaxValue)).Select(p => p.Output).ToList());
    }

    private long Limit()
    {
        if (top is null)
        {
            return long.MaxValue;
        }

        var value = SqlConvert.To(top.Evaluate([]), BigInt) as long?;
        return value is null or < 0
            ? throw new QueryException(new SqlMessage(1014, 1, 16, "A TOP N or FETCH rows count value may not be negative."))
            : value.Value;
    }

    private int CompareRows(object?[] sourceA, object?[] outputA, object?[] sourceB, object?[] outputB)
    {
        foreach (var key in order)
        {
            var result = SqlCompare.CompareForSort(key.Read(sourceA, outputA), key.Read(sourceB, outputB));
            if (result != 0)
            {
                return key.Descending ? -result : result;
            }
        }

        return 0;
    }
}

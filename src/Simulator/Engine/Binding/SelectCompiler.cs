using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.VirtualTables;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>
/// Binds a SELECT the way SQL Server compiles it: the object first (Msg 208), then every column (Msg 207), so a
/// build without a column fails before any permission check runs.
/// </summary>
internal static class SelectCompiler
{
    public static CompiledSelect Compile(SelectStatement select, BindScope baseScope)
    {
        var scope = select.From is null ? baseScope : WithSource(select.From, baseScope);
        var items = new List<BoundExpr>();
        var columns = new List<ResultColumn>();
        foreach (var item in select.Items)
        {
            if (item.IsStar)
            {
                ExpandStar(item, scope, select.Line, items, columns);
                continue;
            }

            var bound = ExpressionBinder.Bind(item.Expr!, scope);
            items.Add(bound);
            // SQL Server names a plain column after itself and leaves any other unaliased expression unnamed.
            columns.Add(bound.Shape.ToColumn(item.Alias ?? (item.Expr is ColumnRef c ? c.Name : "")));
        }

        var aggregate = items.Any(i => i.IsAggregate);
        if (aggregate && items.FirstOrDefault(i => !i.IsAggregate && i.FirstColumn is not null) is { } loose)
        {
            var table = select.From!.Alias ?? select.From.WrittenName;
            throw SqlErrors.NotInGroupBy($"{table}.{loose.FirstColumn}", select.Line);
        }

        var where = select.Where.Select(c => ConditionBinder.Bind(c, scope)).ToList();
        var order = aggregate ? [] : select.OrderBy.Select(o => OrderKey(o, scope, columns)).ToList();
        var top = select.Top is null ? null : ExpressionBinder.Bind(select.Top, baseScope);
        return new CompiledSelect(scope.Table, columns, items, where, order, top);
    }

    private static BindScope WithSource(TableSource source, BindScope scope)
    {
        var session = scope.Session;
        var parts = source.NameParts;
        if (session.Profile.IsAzureSqlDatabase && parts.Count == 3
            && !string.Equals(parts[0], session.Database, StringComparison.OrdinalIgnoreCase))
        {
            throw SqlErrors.CrossDatabaseReference(source.WrittenName, source.Line);
        }

        VirtualTable? table = source.Arguments is null
            ? VirtualCatalog.Find(parts, session)
            : TraceGetTableFunction.Names(parts) ? TraceGetTableFunction.Bind(source, scope)
            : VolumeStatsFunction.Names(parts) ? VolumeStatsFunction.Bind(source, scope) : null;
        if (table is null)
        {
            throw SqlErrors.InvalidObject(source.WrittenName, source.Line, unknownToSimulator: true);
        }

        // A view this build does not have is the emulated answer, not a simulator gap.
        if (!table.ExistsIn(scope.Session.Profile))
        {
            throw SqlErrors.InvalidObject(source.WrittenName, source.Line, unknownToSimulator: false);
        }

        return scope with { Table = table, Source = source };
    }

    private static void ExpandStar(SelectItem item, BindScope scope, int line, List<BoundExpr> items, List<ResultColumn> columns)
    {
        if (scope.Table is null)
        {
            throw new QueryException(new SqlMessage(263, 1, 16, "Must specify table to select from.", line));
        }

        if (item.StarQualifier is { } qualifier && !scope.Accepts(qualifier))
        {
            throw new QueryException(new SqlMessage(107, 1, 16,
                $"The column prefix '{qualifier}' does not match with a table name or alias name used in the query.", line));
        }

        var tableColumns = scope.Columns;
        for (var i = 0; i < tableColumns.Count; i++)
        {
            var index = i;
            items.Add(new BoundExpr(ValueShape.Of(tableColumns[i]), row => row[index], tableColumns[i].Name));
            columns.Add(tableColumns[i]);
        }
    }

    private static SortKey OrderKey(OrderItem item, BindScope scope, IReadOnlyList<ResultColumn> columns)
    {
        if (item.Expr is NumberLiteral ordinal)
        {
            if (ordinal.Value < 1 || ordinal.Value > columns.Count)
            {
                throw new QueryException(new SqlMessage(108, 1, 16,
                    $"The ORDER BY position number {ordinal.Value} is out of range of the number of items in the select list.",
                    ordinal.Line));
            }

            var position = (int)ordinal.Value - 1;
            return new SortKey((_, output) => output[position], item.Descending);
        }

        // A select-list alias wins over a source column of the same name, as in SQL Server.
        if (item.Expr is ColumnRef { Qualifier: null } column)
        {
            var index = columns.ToList().FindIndex(c =>
                c.Name.Length > 0 && string.Equals(c.Name, column.Name, StringComparison.OrdinalIgnoreCase));
            if (index >= 0)
            {
                return new SortKey((_, output) => output[index], item.Descending);
            }
        }

        var bound = ExpressionBinder.Bind(item.Expr, scope);
        return new SortKey((source, _) => bound.Evaluate(source), item.Descending);
    }
}

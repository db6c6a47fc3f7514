namespace IfiDashboard.Store;

/// <summary>The store's two column types: integers as 64-bit, and text (times too, <see cref="StoreTime"/>).</summary>
internal enum StoreColumn
{
    Integer,
    Text,
}

/// <summary>
/// A list of rows in one statement rather than one statement per row (a poll's probe outcomes, services and growth
/// events; the differences of a current-state list). <c>{rows}</c> in the statement stands for the rows as a relation,
/// for <c>INSERT INTO t (...) {rows}</c> or <c>(a, b) IN ({rows})</c>: on PostgreSQL one array parameter per column,
/// unnested, so the text is the same whatever the count and is prepared once per connection (Max Auto Prepare); on
/// SQLite a multi-row VALUES, <see cref="SqliteParametersPerStatement"/> parameters at most per statement, in the
/// caller's <see cref="StatementBatch"/>.
/// </summary>
internal static class RowLists
{
    /// <summary>SQLITE_MAX_VARIABLE_NUMBER's default since SQLite 3.32, which the bundled e_sqlite3 keeps.</summary>
    internal const int SqliteMaxParameters = 32_766;

    /// <summary>
    /// Far below <see cref="SqliteMaxParameters"/>: SQLite finds each bound parameter's index by name in a list, so a
    /// statement's cost grows with the square of its parameters. 3,078 growth events (11 columns) took 79 s in two
    /// statements near the limit, and well under a second in statements of this size.
    /// </summary>
    internal const int SqliteParametersPerStatement = 999;

    /// <summary>Adds the statement for <paramref name="rows"/> to <paramref name="batch"/> (nothing when there is no row).</summary>
    /// <param name="rows">One value per column of <paramref name="columns"/>, in order: a long, a string or null.</param>
    public static void AddRows(this StatementBatch batch, SqlDialect dialect, string statement, IReadOnlyList<StoreColumn> columns,
        IReadOnlyList<object?[]> rows)
    {
        if (rows.Count == 0) return;
        if (dialect.IsPostgres)
        {
            var unnest = string.Join(", ", columns.Select((c, i) => $"@c{i}::{(c == StoreColumn.Integer ? "bigint" : "text")}[]"));
            batch.Add(statement.Replace("{rows}", $"SELECT * FROM unnest({unnest})"), [.. columns.Select((column, i) => ($"c{i}", (object?)(column == StoreColumn.Integer
                ? rows.Select(r => r[i] is { } v ? Convert.ToInt64(v, System.Globalization.CultureInfo.InvariantCulture) : (long?)null).ToArray()
                : rows.Select(r => (string?)r[i]).ToArray())))]);
            return;
        }

        foreach (var chunk in rows.Chunk(Math.Max(1, SqliteParametersPerStatement / columns.Count)))
            batch.Add(statement.Replace("{rows}", "VALUES " + string.Join(", ",
                    chunk.Select((_, r) => "(" + string.Join(", ", columns.Select((_, i) => $"@r{r}c{i}")) + ")"))),
                [.. chunk.SelectMany((row, r) => row.Select((value, i) => ($"r{r}c{i}", value)))]);
    }
}

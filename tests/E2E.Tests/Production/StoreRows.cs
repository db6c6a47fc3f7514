using Microsoft.Data.Sqlite;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>Every row of every table of a SQLite store, every value as text, to compare stores before and after.</summary>
public static class StoreRows
{
    public sealed record Table(List<string> Columns, List<Dictionary<string, string>> Rows)
    {
        /// <summary>Each row as one string of the given columns' values (a column the table lacks reads as gone).</summary>
        public List<string> Project(IReadOnlyList<string> columns) =>
            Rows.Select(row => string.Join('\u001f', columns.Select(c => row.TryGetValue(c, out var v) ? v : "<column gone>"))).ToList();
    }

    /// <summary>The store's tables by name, without SQLite's own and the migrations' journal.</summary>
    public static Dictionary<string, Table> Read(string store)
    {
        using var connection = new SqliteConnection($"Data Source={store};Pooling=false");
        connection.Open();
        var names = new List<string>();
        using (var list = connection.CreateCommand())
        {
            list.CommandText = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_versions';";
            using var reader = list.ExecuteReader();
            while (reader.Read()) names.Add(reader.GetString(0));
        }
        var tables = new Dictionary<string, Table>(StringComparer.Ordinal);
        foreach (var name in names)
        {
            using var select = connection.CreateCommand();
            select.CommandText = $"SELECT * FROM \"{name}\";";
            using var reader = select.ExecuteReader();
            var columns = Enumerable.Range(0, reader.FieldCount).Select(reader.GetName).ToList();
            var rows = new List<Dictionary<string, string>>();
            while (reader.Read())
                rows.Add(columns.Select((c, i) => (c, Text(reader.GetValue(i)))).ToDictionary(p => p.c, p => p.Item2, StringComparer.Ordinal));
            tables[name] = new Table(columns, rows);
        }
        return tables;
    }

    static string Text(object value) => value switch
    {
        DBNull => "<null>",
        byte[] bytes => Convert.ToBase64String(bytes),
        _ => Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture) ?? "",
    };
}

using System.IO.Compression;
using System.Net;
using IfiDashboard.Server.Tests.Deployment;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// An upgrade as an operator makes it: the current server process started on a store the previous release made
/// (tests/E2E.Tests/Fixtures/README.md) migrates it, says it is ready, and keeps every row of every table, each
/// column the old schema had holding the value it held.
/// </summary>
public sealed class UpgradeTests : IDisposable
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-upgrade-").FullName;

    [Fact]
    public async Task A_store_of_the_previous_release_upgrades_with_every_row_kept()
    {
        var store = Path.Combine(_directory, "data", "ifidashboard.db");
        Directory.CreateDirectory(Path.GetDirectoryName(store)!);
        await using (var fixture = new GZipStream(File.OpenRead(Path.Combine(RepositoryRoot.Path, "tests", "E2E.Tests", "Fixtures", "store-b2b862b.sqlite.gz")), CompressionMode.Decompress))
        await using (var file = File.Create(store))
            await fixture.CopyToAsync(file);
        var before = RawTables(store);

        // No collector: nothing but the migrations writes.
        var (server, url) = await ServerProcess.StartOnFreePortAsync(ServerProcess.BuildOutput, _directory,
            url => ["--urls", url, "--Collector:Enabled=false"], TimeSpan.FromSeconds(120));
        await using (server)
        {
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(60) };
            var ready = await http.GetAsync(url + "readyz");
            Assert.True(ready.StatusCode == HttpStatusCode.OK, await ready.Content.ReadAsStringAsync());
            Assert.Contains("Applied store migration", server.Output, StringComparison.Ordinal);
        }

        var after = RawTables(store);
        Assert.True(before.Count > 20, $"read only {before.Count} tables from the fixture");
        foreach (var (table, old) in before)
        {
            var rows = Project(old, old.Columns);
            Assert.True(after.ContainsKey(table), $"table {table} is gone");
            var kept = Project(after[table], old.Columns);
            Assert.True(rows.Order(StringComparer.Ordinal).SequenceEqual(kept.Order(StringComparer.Ordinal)),
                $"{table}: {rows.Except(kept).Count()} of {rows.Count} rows differ after the upgrade, e.g. {rows.Except(kept).FirstOrDefault()}");
        }
    }

    static List<string> Project((List<string> Columns, List<Dictionary<string, string>> Rows) table, List<string> columns) =>
        table.Rows.Select(row => string.Join('\u001f', columns.Select(c => row.TryGetValue(c, out var v) ? v : "<column gone>"))).ToList();

    /// <summary>Each table's columns and rows, every value as text.</summary>
    static Dictionary<string, (List<string> Columns, List<Dictionary<string, string>> Rows)> RawTables(string store)
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
        var tables = new Dictionary<string, (List<string>, List<Dictionary<string, string>>)>(StringComparer.Ordinal);
        foreach (var name in names)
        {
            using var select = connection.CreateCommand();
            select.CommandText = $"SELECT * FROM \"{name}\";";
            using var reader = select.ExecuteReader();
            var columns = Enumerable.Range(0, reader.FieldCount).Select(reader.GetName).ToList();
            var rows = new List<Dictionary<string, string>>();
            while (reader.Read())
                rows.Add(columns.Select((c, i) => (c, Text(reader.GetValue(i)))).ToDictionary(p => p.c, p => p.Item2, StringComparer.Ordinal));
            tables[name] = (columns, rows);
        }
        return tables;
    }

    static string Text(object value) => value switch
    {
        DBNull => "<null>",
        byte[] bytes => Convert.ToBase64String(bytes),
        _ => Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture) ?? "",
    };

    public void Dispose()
    {
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

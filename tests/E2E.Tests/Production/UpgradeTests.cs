using System.IO.Compression;
using System.Net;

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
        var before = StoreRows.Read(store);

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

        var after = StoreRows.Read(store);
        Assert.True(before.Count > 20, $"read only {before.Count} tables from the fixture");
        foreach (var (table, old) in before)
        {
            var rows = old.Project(old.Columns);
            Assert.True(after.ContainsKey(table), $"table {table} is gone");
            var kept = after[table].Project(old.Columns);
            Assert.True(rows.Order(StringComparer.Ordinal).SequenceEqual(kept.Order(StringComparer.Ordinal)),
                $"{table}: {rows.Except(kept).Count()} of {rows.Count} rows differ after the upgrade, e.g. {rows.Except(kept).FirstOrDefault()}");
        }
    }

    public void Dispose()
    {
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

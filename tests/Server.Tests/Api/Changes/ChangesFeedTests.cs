using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Store.Changes;
using IfiDashboard.Server.Tests.Api.Compliance;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Store;

namespace IfiDashboard.Server.Tests.Api.Changes;

public sealed class ChangesFeedTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task First_read_has_every_instance_created_and_first_seen_then_nothing_until_something_changes()
    {
        await using var fleet = await ComplianceFleet.StartAsync();

        var first = await ReadAllAsync(fleet.Reader, null);
        var again = await Page(fleet.Reader, first.Cursor);

        Assert.Equal(4, first.Items.Count(e => e is { Kind: "inventory", Change: "created" }));
        var statuses = first.Items.Where(e => e.Kind == "status").ToList();
        Assert.Equal(4, statuses.Count(e => e is { Change: "firstSeen", NewValue: "Unknown", OldValue: null }));
        Assert.Contains(statuses, e => e is { ExternalKey: "CI-OFF", Change: "changed", NewValue: "NonCompliant", OldValue: "Unknown" }
                                       && e.Detail == "IFI is off but the default policy requires it");
        Assert.Empty(again.Items);
        Assert.Equal(first.Cursor, again.NextCursor);
        Assert.False(again.HasMore);
    }

    [Fact]
    public async Task Taking_ifi_away_adds_a_status_change_and_a_timeline_entry_after_the_cursor_and_nothing_repeats()
    {
        await using var fleet = await ComplianceFleet.StartAsync();
        var before = await ReadAllAsync(fleet.Reader, null);

        fleet.Host.Fleet.Update("ok-required", i => i.IfiEnabled = false);
        await fleet.PollAndAssessAsync();
        var after = await ReadAllAsync(fleet.Reader, before.Cursor);
        var nothing = await Page(fleet.Reader, after.Cursor);

        var status = Assert.Single(after.Items, e => e.Kind == "status");
        Assert.Equal(("CI-OK", "changed", "Compliant", "NonCompliant"), (status.ExternalKey, status.Change, status.OldValue, status.NewValue));
        var timeline = Assert.Single(after.Items, e => e.Kind == "timeline");
        Assert.Equal(("ok-required", "ifiEnabled", "Y", "N"), (timeline.InstanceName, timeline.Change, timeline.OldValue, timeline.NewValue));
        Assert.Empty(after.Items.Select(e => e.Id).Intersect(before.Items.Select(e => e.Id)));
        Assert.Empty(nothing.Items);
    }

    [Fact]
    public async Task Small_pages_walk_the_same_entries_as_one_large_page_in_order()
    {
        await using var fleet = await ComplianceFleet.StartAsync();
        fleet.Host.Fleet.Update("pci-on", i => i.IfiEnabled = false);
        await fleet.PollAndAssessAsync();

        var whole = await Page(fleet.Reader, null, 1000);
        var walked = await ReadAllAsync(fleet.Reader, null, 1);

        Assert.False(whole.HasMore);
        Assert.Equal(whole.Items.Select(e => e.Id), walked.Items.Select(e => e.Id));
        Assert.Equal(whole.NextCursor, walked.Cursor);
        Assert.Equal(whole.Items.Count, whole.Items.Select(e => e.Id).Distinct().Count());
        Assert.Contains(whole.Items, e => e.Kind == "timeline");
    }

    [Fact]
    public async Task Inventory_updates_and_retirements_are_entries_with_the_new_version()
    {
        await using var host = new ApiHost();
        var cmdb = await host.CmdbClientAsync();
        await cmdb.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"));
        var start = await ReadAllAsync(cmdb, null);

        await cmdb.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01", owner: "someone-else"));
        var updated = await ReadAllAsync(cmdb, start.Cursor);
        await cmdb.DeleteAsync("/api/v1/instances/CI001");
        var retired = await ReadAllAsync(cmdb, updated.Cursor);

        Assert.Contains(start.Items, e => e is { Kind: "inventory", Change: "created", ExternalKey: "CI001", Version: 1 });
        var update = Assert.Single(updated.Items);
        Assert.Equal(("updated", 2L), (update.Change, update.Version));
        var retirement = Assert.Single(retired.Items);
        Assert.Equal(("retired", 3L), (retirement.Change, retirement.Version));
    }

    [Fact]
    public async Task An_inventory_write_journals_its_change_in_its_own_transaction_before_anyone_reads_the_feed()
    {
        await using var host = new ApiHost();
        var cmdb = await host.CmdbClientAsync();

        await cmdb.PutAsJsonAsync("/api/v1/instances/CI007", ApiTestData.PutBody("SQL07"));
        await cmdb.PutAsJsonAsync("/api/v1/instances/CI007", ApiTestData.PutBody("SQL07", owner: "someone-else"));
        await using var connection = await host.Services.GetRequiredService<IfiDashboard.Store.IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        var journaled = (await Dapper.SqlMapper.QueryAsync<(string Change, long Version)>(connection,
            "SELECT change, version FROM change_journal WHERE kind = 'inventory' ORDER BY id;")).ToList();

        Assert.Equal([("created", 1L), ("updated", 2L)], journaled);
    }

    [Fact]
    public async Task Two_recorders_racing_record_each_change_once()
    {
        await using var fleet = await ComplianceFleet.StartAsync();

        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(() => fleet.Reader.GetAsync("/api/v1/changes"))));
        var all = await Page(fleet.Reader, null, 1000);

        Assert.Equal(4, all.Items.Count(e => e.Kind == "inventory"));
        var statuses = all.Items.Where(e => e.Kind == "status").ToList();
        Assert.Equal(4, statuses.Count(e => e.Change == "firstSeen"));
        Assert.Equal(statuses.Count, statuses.DistinctBy(e => (e.InstanceId, e.OldValue, e.NewValue)).Count());
    }

    [Theory]
    [InlineData("since=not-a-cursor", "since")]
    [InlineData("since=YzE6LTE6MA", "since")]
    [InlineData("limit=0", "limit")]
    [InlineData("limit=1001", "limit")]
    public async Task A_bad_cursor_or_limit_is_400_naming_it(string query, string field)
    {
        var host = shared.Host;
        var client = host.Client(await host.CreateKeyAsync("read"));

        var response = await client.GetAsync("/api/v1/changes?" + query);

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains($"\"{field}\"", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    static async Task<ChangePage> Page(HttpClient client, string? since, int limit = 100)
    {
        var response = await client.GetAsync($"/api/v1/changes?limit={limit}" + (since is null ? "" : "&since=" + since));
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        return (await response.Content.ReadFromJsonAsync<ChangePage>())!;
    }

    static async Task<(List<ChangeEntry> Items, string Cursor)> ReadAllAsync(HttpClient client, string? since, int limit = 100)
    {
        var items = new List<ChangeEntry>();
        while (true)
        {
            var page = await Page(client, since, limit);
            items.AddRange(page.Items);
            since = page.NextCursor;
            if (!page.HasMore)
                return (items, since);
        }
    }
}

using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Inventory;

namespace IfiDashboard.Server.Tests.Api;

public sealed class PagingTests
{
    [Fact]
    public async Task Pages_follow_id_order_and_instances_added_while_paging_appear_once_at_the_end()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        for (var i = 1; i <= 5; i++)
            await client.PutAsJsonAsync($"/api/v1/instances/CI{i:000}", ApiTestData.PutBody($"SQL{i:000}"));

        var first = (await client.GetFromJsonAsync<InstancePage>("/api/v1/instances?limit=2"))!;
        await client.PutAsJsonAsync("/api/v1/instances/CI006", ApiTestData.PutBody("SQL006"));
        await client.DeleteAsync("/api/v1/instances/CI001");
        var seen = first.Items.Select(i => i.Name).ToList();
        var cursor = first.NextCursor;
        while (cursor is not null)
        {
            var page = (await client.GetFromJsonAsync<InstancePage>($"/api/v1/instances?limit=2&cursor={cursor}"))!;
            seen.AddRange(page.Items.Select(i => i.Name));
            cursor = page.NextCursor;
        }

        Assert.Equal(["SQL001", "SQL002", "SQL003", "SQL004", "SQL005", "SQL006"], seen);
    }

    [Fact]
    public async Task Last_page_has_no_cursor_and_limit_500_is_the_maximum()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL001"));

        var page = (await client.GetFromJsonAsync<InstancePage>("/api/v1/instances?limit=500"))!;
        var tooMany = await client.GetAsync("/api/v1/instances?limit=501");

        Assert.Single(page.Items);
        Assert.Null(page.NextCursor);
        Assert.Equal(HttpStatusCode.BadRequest, tooMany.StatusCode);
        Assert.Contains("limit", await tooMany.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }
}

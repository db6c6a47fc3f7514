using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Inventory;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Api;

/// <summary><c>GET /api/v1/instances</c> with <c>sort</c> and <c>updatedSince</c>: an incremental pull of what changed.</summary>
public sealed class InstanceListOrderTests : IAsyncLifetime
{
    readonly FakeTimeProvider _clock = new(new DateTimeOffset(2026, 11, 2, 8, 0, 0, TimeSpan.Zero));
    readonly ApiHost _host;
    HttpClient _client = null!;

    public InstanceListOrderTests() =>
        _host = new ApiHost(b => b.ConfigureTestServices(services => services.AddSingleton<TimeProvider>(_clock)));

    public async Task InitializeAsync()
    {
        _client = await _host.CmdbClientAsync();
        // Registered an hour apart, names not in id order.
        foreach (var (key, name) in new[] { ("CI001", "delta"), ("CI002", "Alpha"), ("CI003", "charlie"), ("CI004", "Bravo") })
        {
            (await _client.PutAsJsonAsync($"/api/v1/instances/{key}", ApiTestData.PutBody(name))).EnsureSuccessStatusCode();
            _clock.Advance(TimeSpan.FromHours(1));
        }
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    [Fact]
    public async Task Sort_by_name_ignores_case_and_pages_without_repeats()
    {
        Assert.Equal(["Alpha", "Bravo", "charlie", "delta"], await AllPagesAsync("sort=name&limit=1"));
    }

    [Fact]
    public async Task UpdatedSince_with_sort_updatedAt_returns_what_changed_oldest_first_retirements_included()
    {
        var since = _clock.GetUtcNow();
        (await _client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("delta", port: 14330))).EnsureSuccessStatusCode();
        _clock.Advance(TimeSpan.FromMinutes(1));
        (await _client.DeleteAsync("/api/v1/instances/CI003")).EnsureSuccessStatusCode();
        _clock.Advance(TimeSpan.FromMinutes(1));
        (await _client.PutAsJsonAsync("/api/v1/instances/CI002", ApiTestData.PutBody("Alpha", port: 14331))).EnsureSuccessStatusCode();

        var changed = await AllPagesAsync($"sort=updatedAt&includeRetired=true&limit=1&updatedSince={Uri.EscapeDataString(since.ToString("O"))}");
        var activeOnly = await AllPagesAsync($"updatedSince={Uri.EscapeDataString(since.ToString("O"))}");

        Assert.Equal(["delta", "charlie", "Alpha"], changed);
        Assert.Equal(["Alpha", "delta"], activeOnly.Order());
    }

    [Fact]
    public async Task A_cursor_of_one_sort_is_refused_for_another_and_bad_values_name_their_parameter()
    {
        var byName = (await _client.GetFromJsonAsync<InstancePage>("/api/v1/instances?sort=name&limit=1"))!;

        var otherSort = await _client.GetAsync($"/api/v1/instances?sort=updatedAt&cursor={byName.NextCursor}");
        var badSort = await _client.GetAsync("/api/v1/instances?sort=host");
        var badSince = await _client.GetAsync("/api/v1/instances?updatedSince=yesterday");

        await ProblemAssert.IsProblemAsync(otherSort, 400, "cursor");
        await ProblemAssert.IsProblemAsync(badSort, 400, "sort");
        await ProblemAssert.IsProblemAsync(badSince, 400, "updatedSince");
    }

    async Task<List<string>> AllPagesAsync(string query)
    {
        var names = new List<string>();
        string? cursor = null;
        do
        {
            var page = (await _client.GetFromJsonAsync<InstancePage>($"/api/v1/instances?{query}{(cursor is null ? "" : "&cursor=" + cursor)}"))!;
            names.AddRange(page.Items.Select(i => i.Name));
            cursor = page.NextCursor;
        } while (cursor is not null && names.Count < 100);
        return names;
    }
}

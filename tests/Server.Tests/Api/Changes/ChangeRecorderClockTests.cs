using System.Net.Http.Json;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Changes;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Server.Tests.Api.Changes;

/// <summary>
/// The change journal follows every assessment, also one whose clock reads what the previous one's read (a test clock
/// standing still, or two builds within the clock's resolution in production).
/// </summary>
public sealed class ChangeRecorderClockTests
{
    [Fact]
    public async Task A_new_assessment_at_the_same_time_as_the_last_recorded_one_is_journaled()
    {
        var clock = new FakeTimeProvider(new DateTimeOffset(2026, 11, 27, 12, 0, 0, TimeSpan.Zero));
        await using var host = new ApiHost(b => b.ConfigureTestServices(services => services.AddSingleton<TimeProvider>(clock)));
        var cmdb = await host.CmdbClientAsync();
        var assessments = host.Services.GetRequiredService<FleetAssessments>();
        var recorder = host.Services.GetRequiredService<ChangeRecorder>();
        var journal = host.Services.GetRequiredService<ChangeJournal>();

        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"))).EnsureSuccessStatusCode();
        await assessments.RecomputeAsync(CancellationToken.None);
        await recorder.CatchUpAsync(CancellationToken.None);
        var first = await StatusEntriesAsync(journal);
        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI002", ApiTestData.PutBody("SQL02"))).EnsureSuccessStatusCode();
        var second = await assessments.RecomputeAsync(CancellationToken.None);
        await recorder.CatchUpAsync(CancellationToken.None);
        var after = await StatusEntriesAsync(journal);

        Assert.Equal(clock.GetUtcNow(), second.ComputedAt);
        Assert.Single(first);
        Assert.Equal(2, after.Count);
    }

    static async Task<List<JournalRow>> StatusEntriesAsync(ChangeJournal journal) =>
        (await journal.ReadJournalAsync(0, 100, CancellationToken.None)).Where(r => r.Kind == "status").ToList();
}

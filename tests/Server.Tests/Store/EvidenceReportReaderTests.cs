using System.Globalization;
using IfiDashboard.Store.Reports;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>The evidence report's reads (<see cref="EvidenceReportReader"/>), on both stores.</summary>
public sealed class EvidenceReportReaderTests
{
    static readonly CancellationToken None = CancellationToken.None;
    static readonly DateTimeOffset From = TestStore.Start.AddHours(1);
    static readonly DateTimeOffset To = TestStore.Start.AddHours(5);

    [Theory, StoreProviders]
    public async Task Poll_times_come_one_asked_instance_at_a_time_in_order_within_the_period(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var a = await store.Instances.AddAsync(TestData.Registration("A"), None);
        var notAsked = await store.Instances.AddAsync(TestData.Registration("B"), None);
        var silent = await store.Instances.AddAsync(TestData.Registration("C"), None);
        var d = await store.Instances.AddAsync(TestData.Registration("D"), None);
        foreach (var (id, hours) in new[] { (a, 0), (d, 2), (a, 3), (notAsked, 2), (a, 1), (d, 5), (d, 4) })
            await store.Snapshots.WriteAsync(TestData.Good(id, TestStore.Start.AddHours(hours)), None);

        await using var period = await new EvidenceReportReader(store.Connections).OpenAsync(From, To, None);
        var groups = new List<string>();
        await foreach (var (id, times) in period.PollTimesByInstanceAsync(new HashSet<long> { a, silent, d }, None))
            groups.Add($"{id}: {string.Join(", ", times.Select(t => t.ToString("HH:mm:ss.fff", CultureInfo.InvariantCulture)))}");

        // Polls finish 120 ms after they start; the period is 09:00 to 13:00, its end left out.
        Assert.Equal([$"{a}: 09:00:00.120, 11:00:00.120", $"{d}: 10:00:00.120, 12:00:00.120"], groups);
    }

    /// <summary>
    /// The report's sections must agree: a poll stored after the first read, while the report is being made, is in none
    /// of them (on PostgreSQL each statement would otherwise see its own moment).
    /// </summary>
    [Theory, StoreProviders]
    public async Task Sections_are_read_from_one_view_a_poll_stored_meanwhile_is_in_none(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        var id = await store.Instances.AddAsync(TestData.Registration("A"), None);
        await store.Snapshots.WriteAsync(TestData.Good(id, From.AddHours(1)), None);

        await using var period = await new EvidenceReportReader(store.Connections).OpenAsync(From, To, None);
        var instances = await period.InstancesAsync(None);
        await store.Snapshots.WriteAsync(TestData.Good(id, From.AddHours(2)), None);

        var last = (await period.LastPollsAsync(None))[id];
        var times = new List<DateTimeOffset>();
        await foreach (var (_, polled) in period.PollTimesByInstanceAsync(new HashSet<long> { id }, None)) times.AddRange(polled);

        Assert.Equal([id], instances.Select(i => i.Id));
        Assert.Equal(From.AddHours(1).AddMilliseconds(120), last.FinishedAt);
        Assert.Equal([From.AddHours(1).AddMilliseconds(120)], times);
    }
}

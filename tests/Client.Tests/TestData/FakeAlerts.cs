using System.Security.Claims;
using IfiDashboard.Client.Pages;

namespace IfiDashboard.Client.Tests.TestData;

/// <summary>The alert pages' settings and history as given; nothing is sent or saved.</summary>
public sealed class FakeAlertsView(AlertSettingsSummary settings, IReadOnlyList<AlertHistoryItem>? history = null) : IAlertsView
{
    public Task<IReadOnlyList<AlertHistoryItem>> RecentAsync(int count, CancellationToken ct) => Task.FromResult(history ?? []);
    public Task<AlertSettingsSummary> SettingsAsync(CancellationToken ct) => Task.FromResult(settings);
    public Task SaveSettingsAsync(AlertSettingsChange change, ClaimsPrincipal by, CancellationToken ct) => throw new NotSupportedException();
    public Task<TestEmailOutcome> SendTestAsync(string to, CancellationToken ct) => throw new NotSupportedException();
}

/// <summary>Silences in force and the open alerts per instance, as the server would answer; records what is asked of it.</summary>
public sealed class FakeSilences(IReadOnlyList<SilenceView> active, IReadOnlyDictionary<long, string[]>? open = null) : IAlertSilences
{
    public List<SilenceRequest> Created { get; } = [];

    public Task<IReadOnlyList<SilenceView>> ActiveAsync(CancellationToken ct) => Task.FromResult(active);

    public Task<IReadOnlyList<string>> OpenAlertsAsync(long instanceId, CancellationToken ct) =>
        Task.FromResult<IReadOnlyList<string>>(open?.GetValueOrDefault(instanceId) ?? []);

    public Task<long> CreateAsync(SilenceRequest request, ClaimsPrincipal by, CancellationToken ct)
    {
        Created.Add(request);
        return Task.FromResult(1L);
    }

    public Task<bool> EndAsync(long id, ClaimsPrincipal by, CancellationToken ct) => Task.FromResult(true);
}

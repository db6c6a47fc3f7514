namespace IfiDashboard.E2E.Tests;

/// <summary>A demo server and a browser, started once per test collection: starting either takes seconds.</summary>
public abstract class BrowserFixture : IAsyncLifetime
{
    public DemoDashboard Server { get; } = new();
    public Browser Browser { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        await Server.StartAsync();
        Browser = new Browser();
    }

    public async Task DisposeAsync()
    {
        Browser?.Dispose();
        await Server.DisposeAsync();
    }
}

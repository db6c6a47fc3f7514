namespace IfiDashboard.E2E.Tests;

/// <summary>One demo server and one browser for all browser tests: starting either takes seconds.</summary>
public sealed class DemoFixture : IAsyncLifetime
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

[CollectionDefinition(Name)]
public sealed class DemoCollection : ICollectionFixture<DemoFixture>
{
    public const string Name = "demo dashboard in Chromium";
}

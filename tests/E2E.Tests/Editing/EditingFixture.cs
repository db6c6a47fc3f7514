namespace IfiDashboard.E2E.Tests.Editing;

/// <summary>
/// A demo server and a browser of their own: these tests register instances and grant waivers, which would change
/// the counts the read-only browser tests assert on the shared demo.
/// </summary>
public sealed class EditingFixture : IAsyncLifetime
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
public sealed class EditingCollection : ICollectionFixture<EditingFixture>
{
    public const string Name = "editing the demo in Chromium";
}

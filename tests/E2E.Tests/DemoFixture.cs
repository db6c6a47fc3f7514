namespace IfiDashboard.E2E.Tests;

/// <summary>The shared demo for the read-only browser tests.</summary>
public sealed class DemoFixture : BrowserFixture;

[CollectionDefinition(Name)]
public sealed class DemoCollection : ICollectionFixture<DemoFixture>
{
    public const string Name = "demo dashboard in Chromium";
}

namespace IfiDashboard.E2E.Tests.Editing;

/// <summary>
/// A demo server and a browser of their own: these tests register instances and grant waivers, which would change
/// the counts the read-only browser tests assert on the shared demo.
/// </summary>
public sealed class EditingFixture : BrowserFixture;

[CollectionDefinition(Name)]
public sealed class EditingCollection : ICollectionFixture<EditingFixture>
{
    public const string Name = "editing the demo in Chromium";
}

using System.Collections.Concurrent;
using System.Diagnostics;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Two demo servers in the Production environment, started as users start them, and one browser: the server's build
/// output (what <c>dotnet run --project src/Server -- --demo</c> runs) and a <c>dotnet publish</c> output (what a
/// deployment and the container run), each from a working directory of its own that is neither the repository nor
/// the binaries' folder.
/// </summary>
public sealed class ProductionServerFixture : IAsyncLifetime
{
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(120);

    readonly string _root = Directory.CreateTempSubdirectory("ifi-production-").FullName;
    // Both servers start at once and each adds itself when it answers.
    readonly ConcurrentDictionary<string, (ServerProcess Process, string BaseUrl)> _servers = new();

    public Browser Browser { get; private set; } = null!;

    public const string BuildOutput = "build";
    public const string PublishOutput = "publish";

    public ServerProcess Process(string output) => _servers[output].Process;

    public string BaseUrl(string output) => _servers[output].BaseUrl;

    public async Task InitializeAsync()
    {
        try
        {
            var published = Path.Combine(_root, "published");
            await PublishAsync(published);
            await Task.WhenAll(StartAsync(BuildOutput, ServerProcess.BuildOutput), StartAsync(PublishOutput, published));
            Browser = new Browser();
        }
        catch
        {
            await DisposeAsync(); // no server outlives a fixture that failed to start
            throw;
        }
    }

    async Task StartAsync(string output, string binaries)
    {
        var workingDirectory = Directory.CreateDirectory(Path.Combine(_root, "cwd-" + output)).FullName;
        _servers[output] = await ServerProcess.StartOnFreePortAsync(binaries, workingDirectory,
            url => ["--demo", "--urls", url], StartTimeout);
    }

    /// <summary>
    /// Publishes the server once per test run, framework-dependent and without a runtime identifier, from the build
    /// the test run already made (--no-build): only the publish step itself runs.
    /// </summary>
    static Task PublishAsync(string folder) =>
        ServerProcess.RunToEndAsync(new ProcessStartInfo(ServerProcess.DotnetHost(),
            ["publish", ServerProcess.Project, "--no-build", "--nologo", "-c", ServerProcess.Configuration, "-o", folder]),
            TimeSpan.FromMinutes(5));

    public async Task DisposeAsync()
    {
        Browser?.Dispose();
        foreach (var (process, _) in _servers.Values) await process.DisposeAsync();
        try { Directory.Delete(_root, recursive: true); } catch (IOException) { }
    }
}

[CollectionDefinition(Name)]
public sealed class ProductionCollection : ICollectionFixture<ProductionServerFixture>
{
    public const string Name = "servers started as users start them, in Chromium";
}

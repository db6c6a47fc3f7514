using System.Diagnostics;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// Demo servers in the Production environment, started as users start them, and one browser: the server's build
/// output (what <c>dotnet run --project src/Server -- --demo</c> runs) and a <c>dotnet publish</c> output (what a
/// deployment and the container run), each from a working directory of its own that is neither the repository nor
/// the binaries' folder. One server runs at a time: each polls its demo fleet of 50 every minute, and the one not
/// being looked at did so for the whole of the other's page tour.
/// </summary>
public sealed class ProductionServerFixture : IAsyncLifetime
{
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(120);

    readonly string _root = Directory.CreateTempSubdirectory("ifi-production-").FullName;
    readonly SemaphoreSlim _switching = new(1, 1);
    string _published = "";
    (string Output, ServerProcess Process, string BaseUrl)? _running;

    public Browser Browser { get; private set; } = null!;

    public const string BuildOutput = "build";
    public const string PublishOutput = "publish";

    public async Task InitializeAsync()
    {
        try
        {
            _published = Path.Combine(_root, "published");
            await PublishAsync(_published);
            Browser = new Browser();
        }
        catch
        {
            await DisposeAsync(); // no server outlives a fixture that failed to start
            throw;
        }
    }

    /// <summary>The server of <paramref name="output"/>, started now if another one was running (which is stopped).</summary>
    public async Task<(ServerProcess Process, string BaseUrl)> ServerAsync(string output)
    {
        await _switching.WaitAsync();
        try
        {
            if (_running is { } running && running.Output == output) return (running.Process, running.BaseUrl);
            if (_running is { } other) await other.Process.DisposeAsync();
            _running = null;
            var workingDirectory = Directory.CreateDirectory(Path.Combine(_root, "cwd-" + output)).FullName;
            var binaries = output == BuildOutput ? ServerProcess.BuildOutput : _published;
            var (process, baseUrl) = await ServerProcess.StartOnFreePortAsync(binaries, workingDirectory,
                url => ["--demo", "--urls", url], StartTimeout);
            _running = (output, process, baseUrl);
            return (process, baseUrl);
        }
        finally
        {
            _switching.Release();
        }
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
        if (_running is { } running) await running.Process.DisposeAsync();
        try { Directory.Delete(_root, recursive: true); } catch (IOException) { }
    }
}

[CollectionDefinition(Name)]
public sealed class ProductionCollection : ICollectionFixture<ProductionServerFixture>
{
    public const string Name = "servers started as users start them, in Chromium";
}

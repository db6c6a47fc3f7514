using IfiDashboard.Tests.Support;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// A live page whose server process goes away: the reconnect banner says so, and when the server is back (a new
/// process on the same address and store) the page comes back by itself on a new circuit.
/// </summary>
public sealed class ReconnectTests : IAsyncLifetime
{
    static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(120);

    readonly string _workingDirectory = Directory.CreateTempSubdirectory("ifi-reconnect-").FullName;
    readonly string _baseUrl = $"http://127.0.0.1:{LoopbackPorts.Unassigned()}/";
    ServerProcess? _server;
    Browser _browser = null!;

    public async Task InitializeAsync()
    {
        await StartServerAsync();
        _browser = new Browser();
    }

    async Task StartServerAsync()
    {
        _server = ServerProcess.Start(ServerProcess.BuildOutput, _workingDirectory, "--demo", "--urls", _baseUrl.TrimEnd('/'));
        await _server.WaitUntilHealthyAsync(_baseUrl, StartTimeout);
    }

    public async Task DisposeAsync()
    {
        _browser?.Dispose();
        if (_server is not null) await _server.DisposeAsync();
        try { Directory.Delete(_workingDirectory, recursive: true); } catch (IOException) { }
    }

    string BannerState() => (string)_browser.Driver.ExecuteScript(
        "const b = document.getElementById('components-reconnect-modal');" +
        "return getComputedStyle(b).display === 'none' ? 'hidden' : [...b.querySelectorAll('p')].find(p => getComputedStyle(p).display !== 'none')?.className ?? 'empty';")!;

    [Fact]
    public async Task A_restarted_server_brings_the_open_page_back_after_a_reconnect_banner()
    {
        _browser.Open(_baseUrl);
        _browser.WaitFor("[data-live-indicator]"); // the circuit is up
        Assert.Equal("hidden", BannerState());
        _browser.Driver.ExecuteScript("const m = document.createElement('i'); m.id = 'before-restart'; document.body.append(m);");

        await _server!.DisposeAsync(); // killed, as a crash or a host reboot would
        _browser.WaitUntil(_ => BannerState() == "reconnect-trying");
        _browser.Screenshot("reconnect-banner");

        await StartServerAsync();

        // The new process does not know the old circuit: the page reloads itself and starts a new one.
        _browser.WaitUntil(_ => _browser.All("#before-restart").Count == 0 && _browser.All("[data-live-indicator]").Count > 0, 60);
        Assert.Equal("hidden", BannerState());
        Assert.NotEmpty(_browser.All("[data-count=Compliant]"));
    }
}

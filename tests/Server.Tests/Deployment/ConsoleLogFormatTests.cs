using System.Globalization;
using System.Text.Json;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// The console log an SRE reads or ships, from the standalone collector's process (the server's host adds the same
/// formatters through the same call): one line per entry with a UTC timestamp by default, and one JSON object per line
/// with <c>Logging__Console__FormatterName=json</c>, whose timestamp is a plain ISO 8601 instant.
/// </summary>
public sealed class ConsoleLogFormatTests : IDisposable
{
    readonly string _outbox = Directory.CreateTempSubdirectory("ifi-log-format-outbox-").FullName;

    public void Dispose()
    {
        try { Directory.Delete(_outbox, recursive: true); } catch (IOException) { }
    }

    /// <summary>A collector whose server is not there: it starts, says where its outbox is, and keeps trying.</summary>
    Dictionary<string, string> Settings() => new()
    {
        ["Collector__ServerUrl"] = $"http://127.0.0.1:{LoopbackPorts.Unassigned()}/",
        ["Collector__ApiKey"] = DashboardHost.ApiKey,
        ["Collector__Name"] = "log-format",
        ["Collector__Outbox__Directory"] = _outbox,
    };

    [Fact]
    public async Task By_default_each_entry_is_one_line_starting_with_its_utc_timestamp()
    {
        await using var collector = CollectorProcess.Start(Settings());

        var outbox = await collector.WaitForLineAsync(l => l.Contains($"Outbox {_outbox}", StringComparison.Ordinal));

        Assert.True(outbox is not null, collector.Log);
        Assert.Matches(@"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info: IfiDashboard\.Collector\.[\w.]+\[\d+\] Outbox ", outbox);
        var stamp = DateTimeOffset.ParseExact(outbox[..24], "yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);
        Assert.InRange(stamp, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddHours(1));
        Assert.All(collector.Lines.Where(l => l.Length > 0), line => Assert.Matches(@"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \w+: ", line));
    }

    [Fact]
    public async Task With_the_json_formatter_each_entry_is_one_json_object_with_an_iso_timestamp()
    {
        var settings = Settings();
        settings["Logging__Console__FormatterName"] = "json";
        await using var collector = CollectorProcess.Start(settings);

        var outbox = await collector.WaitForLineAsync(l => l.Contains("Outbox ", StringComparison.Ordinal));

        Assert.True(outbox is not null, collector.Log);
        using var entry = JsonDocument.Parse(outbox);
        var timestamp = entry.RootElement.GetProperty("Timestamp").GetString()!;
        Assert.Matches(@"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$", timestamp);
        Assert.Equal("Information", entry.RootElement.GetProperty("LogLevel").GetString());
        Assert.All(collector.Lines.Where(l => l.Length > 0), line => JsonDocument.Parse(line).Dispose());
    }
}

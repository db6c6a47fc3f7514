using System.Text.Json;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>
/// Every snapshot is first written to disk (temp file, then an atomic rename), and only then delivered: a server
/// outage or a collector restart loses nothing. Delivery is idempotent on the server (by snapshot id), so a
/// snapshot delivered but not yet deleted when the collector stopped is not stored twice.
/// </summary>
public sealed class SnapshotOutbox : ISnapshotSink
{
    const string Extension = ".snapshot.json";
    readonly OutboxOptions _options;
    readonly ILogger<SnapshotOutbox> _logger;
    readonly SemaphoreSlim _signal = new(0);
    long _dropped;

    public SnapshotOutbox(OutboxOptions options, ILogger<SnapshotOutbox> logger)
    {
        _options = options;
        _logger = logger;
        Directory.CreateDirectory(options.Directory);
    }

    public long Dropped => Interlocked.Read(ref _dropped);

    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        // Names sort by enqueue time, so delivery is oldest first.
        var name = $"{DateTime.UtcNow.Ticks:D20}-{snapshot.SnapshotId:N}";
        var temporary = Path.Combine(_options.Directory, name + ".tmp");
        await using (var file = File.Create(temporary))
            await JsonSerializer.SerializeAsync(file, snapshot, cancellationToken: cancellationToken);
        File.Move(temporary, Path.Combine(_options.Directory, name + Extension));
        TrimToCapacity();
        _signal.Release();
    }

    /// <summary>Queued snapshot files, oldest first.</summary>
    public IReadOnlyList<string> Pending() =>
        Directory.GetFiles(_options.Directory, "*" + Extension).Order(StringComparer.Ordinal).ToList();

    public static async Task<InstanceSnapshot> ReadAsync(string path, CancellationToken cancellationToken)
    {
        await using var file = File.OpenRead(path);
        return await JsonSerializer.DeserializeAsync<InstanceSnapshot>(file, cancellationToken: cancellationToken)
               ?? throw new InvalidDataException($"Outbox file {path} is empty.");
    }

    /// <summary>Waits until a snapshot is queued or the timeout passes.</summary>
    public Task WaitForWorkAsync(TimeSpan timeout, CancellationToken cancellationToken) => _signal.WaitAsync(timeout, cancellationToken);

    void TrimToCapacity()
    {
        var pending = Pending();
        foreach (var oldest in pending.Take(Math.Max(0, pending.Count - _options.MaxSnapshots)))
        {
            File.Delete(oldest);
            Interlocked.Increment(ref _dropped);
            _logger.LogError("Outbox full ({Max} snapshots): dropped the oldest, {File}", _options.MaxSnapshots, Path.GetFileName(oldest));
        }
    }
}

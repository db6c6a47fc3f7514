using System.Text.Json;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>
/// Every snapshot is first written to disk (temp file, then an atomic rename), and only then delivered: a server
/// outage or a collector restart loses nothing. Delivery is idempotent on the server (by snapshot id), so a
/// snapshot delivered but not yet deleted when the collector stopped is not stored twice.
/// One collector owns one outbox: a lock file held open with an exclusive OS lock for the collector's lifetime makes
/// a second collector on the same folder refuse to start instead of delivering (and deleting) the first one's queue.
/// </summary>
public sealed class SnapshotOutbox : ISnapshotSink, IDisposable
{
    const string Extension = ".snapshot.json";
    public const string LockFileName = "collector.lock";
    readonly OutboxOptions _options;
    readonly ILogger<SnapshotOutbox> _logger;
    readonly SemaphoreSlim _signal = new(0);
    readonly FileStream _lock;
    long _dropped;

    /// <exception cref="OutboxUnavailableException">Another running collector holds this outbox, or it cannot be created.</exception>
    public SnapshotOutbox(OutboxOptions options, ILogger<SnapshotOutbox> logger)
    {
        _options = options;
        _logger = logger;
        _lock = Acquire(options.Directory);
        _logger.LogInformation("Outbox {Directory}: {Pending} snapshots queued", Path.GetFullPath(options.Directory), Pending().Count);
    }

    static FileStream Acquire(string directory)
    {
        if (string.IsNullOrWhiteSpace(directory))
            throw new OutboxUnavailableException("Collector:Outbox:Directory is empty: set it to a folder of this collector's own.");
        var full = Path.GetFullPath(directory);
        try
        {
            Directory.CreateDirectory(full);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            throw new OutboxUnavailableException(
                $"Cannot create the outbox {full} ({e.Message}): set Collector:Outbox:Directory to a folder this account may write.", e);
        }
        try
        {
            return new FileStream(Path.Combine(full, LockFileName), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None);
        }
        catch (UnauthorizedAccessException e)
        {
            throw new OutboxUnavailableException(
                $"Cannot write to the outbox {full} ({e.Message}): set Collector:Outbox:Directory to a folder this account may write.", e);
        }
        catch (IOException e)
        {
            throw new OutboxUnavailableException(
                $"Another running collector holds the outbox {full}: give each collector its own Collector:Name " +
                "(the default outbox is per name) or its own Collector:Outbox:Directory.", e);
        }
    }

    /// <summary>Releases the outbox to the next collector started on it.</summary>
    public void Dispose() => _lock.Dispose();

    public long Dropped => Interlocked.Read(ref _dropped);

    public async Task WriteAsync(InstanceSnapshot snapshot, CancellationToken cancellationToken)
    {
        // Names sort by enqueue time, so delivery is oldest first, and name the instance, so that delivery can keep
        // each instance's snapshots in order without reading every file first.
        var name = $"{DateTime.UtcNow.Ticks:D20}-{snapshot.InstanceId}-{snapshot.SnapshotId:N}";
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

    /// <summary>
    /// Queued files (<paramref name="pending"/>, oldest first) as one lane per instance, each oldest first, the lanes
    /// in the order of their oldest file; files queued by a release whose names did not carry the instance come apart,
    /// oldest first.
    /// </summary>
    public static (IReadOnlyList<string> Unnamed, IReadOnlyList<IReadOnlyList<string>> Lanes) ByInstance(IReadOnlyList<string> pending)
    {
        var unnamed = new List<string>();
        var lanes = new Dictionary<long, List<string>>();
        var order = new List<List<string>>();
        foreach (var path in pending)
        {
            if (InstanceOf(path) is not { } instance)
            {
                unnamed.Add(path);
                continue;
            }
            if (!lanes.TryGetValue(instance, out var lane))
            {
                lanes[instance] = lane = [];
                order.Add(lane);
            }
            lane.Add(path);
        }
        return (unnamed, order);
    }

    /// <summary>The instance a queued file's name carries (<c>ticks-instance-snapshot</c>); null for an older name.</summary>
    static long? InstanceOf(string path)
    {
        var parts = Path.GetFileName(path)[..^Extension.Length].Split('-');
        return parts.Length == 3 && long.TryParse(parts[1], System.Globalization.NumberStyles.None,
            System.Globalization.CultureInfo.InvariantCulture, out var instance) ? instance : null;
    }

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

using System.Net;
using System.Text.Json;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Standalone;

/// <summary>
/// Snapshots the server refused, set aside in the outbox as <c>&lt;file&gt;.refused</c> beside a note,
/// <c>&lt;file&gt;.refused.json</c>, that says why (the server's status and reason), when, and whether it is retried.
/// A refusal that can pass is retried every <see cref="RetryInterval"/>: 409 (the server did not take the poll as
/// one of this collector's leases: a server of an older version, or a lease the server had not recorded yet) and 400
/// (times ahead of the server's clock: they pass as its clock catches up, or once <c>Ingestion:MaxClockSkew</c> is
/// raised). Any other (another collector's name, too large, the instance gone) is kept for the operator only.
/// Whatever is still set aside <see cref="OutboxOptions.RefusedRetentionHours"/> after its first refusal is deleted,
/// with one log line for each pass that deletes any.
/// </summary>
public sealed class RefusedSnapshots(OutboxOptions options, TimeProvider time, ILogger logger)
{
    public const string Extension = ".refused";
    public const string NoteExtension = ".refused.json";

    /// <summary>How often a refusal that can pass is sent again.</summary>
    public static readonly TimeSpan RetryInterval = TimeSpan.FromMinutes(10);

    /// <summary>The set-aside files are looked at no more often than this, not at every delivery round.</summary>
    static readonly TimeSpan ScanInterval = TimeSpan.FromMinutes(1);

    static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    DateTimeOffset _nextScan = DateTimeOffset.MinValue;

    /// <summary>Why a snapshot was set aside; <see cref="Retried"/> says whether the collector sends it again.</summary>
    public sealed record Note(int Status, string Reason, bool Retried, DateTimeOffset FirstRefusedAt, DateTimeOffset LastRefusedAt, int Refusals);

    public static bool CanPass(HttpStatusCode status) => status is HttpStatusCode.Conflict or HttpStatusCode.BadRequest;

    /// <summary>Sets a queued file aside with its note; a file refused before keeps its first refusal's time.</summary>
    public void SetAside(string path, SnapshotRefusedException refusal)
    {
        var now = time.GetUtcNow();
        var earlier = Read(path + NoteExtension);
        var note = new Note((int)refusal.Status, refusal.Reason, CanPass(refusal.Status), earlier?.FirstRefusedAt ?? now, now,
            (earlier?.Refusals ?? 0) + 1);
        File.WriteAllText(path + NoteExtension, JsonSerializer.Serialize(note, Json));
        File.Move(path, path + Extension, overwrite: true);
    }

    /// <summary>A delivered file's note, if it had been refused before, goes with it.</summary>
    public static void Delivered(string path) => File.Delete(path + NoteExtension);

    /// <summary>
    /// At most once a <see cref="ScanInterval"/>: puts back in the queue the set-aside files whose refusal can pass and
    /// was last met <see cref="RetryInterval"/> ago, and deletes those set aside longer than the retention.
    /// </summary>
    /// <returns>How many files were put back.</returns>
    public int RequeueAndPrune()
    {
        var now = time.GetUtcNow();
        if (now < _nextScan)
            return 0;
        _nextScan = now + ScanInterval;
        var retention = TimeSpan.FromHours(options.RefusedRetentionHours);
        int requeued = 0, pruned = 0;
        DateTimeOffset? oldestPruned = null;
        foreach (var refused in Directory.GetFiles(options.Directory, "*" + Extension))
        {
            var queued = refused[..^Extension.Length];
            // A file set aside before notes were written: its reason is in that day's log only; it is retried.
            var note = Read(queued + NoteExtension) ?? new Note(0, "", true, File.GetLastWriteTimeUtc(refused), File.GetLastWriteTimeUtc(refused), 1);
            if (now - note.FirstRefusedAt >= retention)
            {
                File.Delete(refused);
                File.Delete(queued + NoteExtension);
                pruned++;
                oldestPruned = oldestPruned is { } oldest && oldest < note.FirstRefusedAt ? oldest : note.FirstRefusedAt;
            }
            else if (note.Retried && now - note.LastRefusedAt >= RetryInterval)
            {
                File.Move(refused, queued, overwrite: true);
                requeued++;
            }
        }
        if (pruned > 0)
            logger.LogWarning("Deleted {Count} refused snapshots set aside more than {Hours} h ago (Collector:Outbox:RefusedRetentionHours), the oldest first refused at {Oldest:u}",
                pruned, options.RefusedRetentionHours, oldestPruned);
        return requeued;
    }

    static Note? Read(string notePath)
    {
        try
        {
            return JsonSerializer.Deserialize<Note>(File.ReadAllText(notePath), Json);
        }
        catch (Exception e) when (e is FileNotFoundException or JsonException)
        {
            return null;
        }
    }
}

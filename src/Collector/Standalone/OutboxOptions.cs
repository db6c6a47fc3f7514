namespace IfiDashboard.Collector.Standalone;

/// <summary>The standalone collector's on-disk queue of snapshots not yet accepted by the server.</summary>
public sealed class OutboxOptions
{
    public const string Section = "Collector:Outbox";

    /// <summary>
    /// Empty (the default): a folder of this collector's own, named after <c>Collector:Name</c>, under the account's
    /// local application data (<see cref="DefaultDirectory"/>). Never the working directory: two collectors started in
    /// one folder would share one queue.
    /// </summary>
    public string Directory { get; set; } = "";
    /// <summary>Beyond this many queued snapshots the oldest are dropped (and counted), so a long outage cannot fill the disk.</summary>
    public int MaxSnapshots { get; set; } = 20_000;

    /// <summary>How long a snapshot the server refused is kept set aside (and, if its refusal can pass, retried) before it is deleted (<see cref="RefusedSnapshots"/>).</summary>
    public int RefusedRetentionHours { get; set; } = 7 * 24;
    public double MaxBackoffSeconds { get; set; } = 60;

    /// <summary>
    /// Snapshots delivered at once, each of another instance (one instance's go one after another, oldest first).
    /// One at a time made every delivery wait for the last one's round trip: four collectors then had four snapshots in
    /// flight, and ingestion was bound by latency, not by the server (docs/benchmarks.md, "Four collectors").
    /// </summary>
    public int MaxDeliveriesInFlight { get; set; } = 8;

    /// <summary>The most <see cref="MaxDeliveriesInFlight"/> may be: more would only queue on the server's store.</summary>
    public const int MostDeliveriesInFlight = 64;

    /// <summary>
    /// <c>IfiDashboard/collectors/&lt;Collector:Name&gt;/outbox</c> under the local application data folder
    /// (<c>%LOCALAPPDATA%</c> on Windows, <c>$XDG_DATA_HOME</c> or <c>~/.local/share</c> on Linux): stable across
    /// restarts and different for each collector name.
    /// </summary>
    public static string DefaultDirectory(string collectorName)
    {
        var root = Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData);
        if (root.Length == 0)
            throw new OutboxUnavailableException(
                "Collector:Outbox:Directory is not set and this account has no local application data folder (no HOME): " +
                "set Collector:Outbox:Directory to a folder of this collector's own.");
        return Path.Combine(root, "IfiDashboard", "collectors", FolderName(collectorName), "outbox");
    }

    /// <summary>The collector's name as one safe path segment (anything but letters, digits, '.', '_', '-' becomes '_').</summary>
    static string FolderName(string collectorName)
    {
        var safe = new string(collectorName.Trim().Select(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-' ? c : '_').ToArray());
        return safe.Trim('.') is { Length: > 0 } trimmed ? trimmed : "collector";
    }
}

/// <summary>The outbox cannot be used: its message says which setting to change. The collector does not start.</summary>
public sealed class OutboxUnavailableException(string message, Exception? inner = null) : Exception(message, inner);

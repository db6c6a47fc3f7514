namespace IfiDashboard.Compliance.Restore;

/// <summary>
/// The extra time a restore onto new files (or a re-create) of one database spends writing zeroes. Data files
/// without effective IFI count; log files are zeroed on every restore, so their share is shown apart. Volumes are
/// zeroed side by side and the files of one volume one after another, so each figure is the slowest volume's time.
/// </summary>
public sealed record DatabaseRestoreRisk
{
    public required long InstanceId { get; init; }
    public required string InstanceName { get; init; }
    public required int DatabaseId { get; init; }
    public required string DatabaseName { get; init; }

    public required long DataBytes { get; init; }

    /// <summary>Data bytes in files without effective IFI (unknown IFI counted here: the cautious reading).</summary>
    public required long ZeroedDataBytes { get; init; }

    /// <summary>
    /// Seconds the restore's zeroing lasts beyond the log zeroing it does anyway (the time IFI would save, or TDE
    /// costs); 0 when every data file has effective IFI. A data file that shares a volume with a log file waits for it.
    /// </summary>
    public required double ExtraSeconds { get; init; }

    /// <summary>Volumes holding data files that are zeroed: they are zeroed in parallel.</summary>
    public required int ZeroedVolumes { get; init; }

    public required long LogBytes { get; init; }

    /// <summary>Seconds the log files' zeroing lasts (their volumes in parallel): zeroed on every restore, IFI or not.</summary>
    public required double LogZeroingSeconds { get; init; }

    /// <summary>At least one file's rate is the configured default, not measured.</summary>
    public required bool RateAssumed { get; init; }

    /// <summary>At least one data file's IFI is unknown and was counted as zeroed.</summary>
    public required bool IfiUnknown { get; init; }

    /// <summary>Any TDE: IFI cannot shorten this database's data-file zeroing.</summary>
    public required bool TdeEncrypted { get; init; }

    public double ExtraMinutes => ExtraSeconds / 60;
}

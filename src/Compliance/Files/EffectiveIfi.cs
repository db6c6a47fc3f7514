using IfiDashboard.Compliance.Facts;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Compliance.Files;

/// <summary>
/// Whether zeroing is skipped for a file. The instance's IFI flag is only the starting point: TDE switches it off
/// for a database's data files, log files are zeroed regardless, and SQL Server 2022 spares small log autogrowths.
/// </summary>
public static class EffectiveIfi
{
    public const int FirstMajorWithSmallLogGrowthIfi = 16;

    // The decisions are immutable and judged once per growth event: shared instances, not one allocation per event.
    static readonly FileIfiDecision AzurePaas = new(FileIfi.NotApplicable, FileIfiReason.AzurePaas,
        "Azure SQL Database / Managed Instance: IFI is managed by the platform");
    static readonly FileIfiDecision TdeEncrypted = new(FileIfi.Off, FileIfiReason.TdeEncrypted,
        "the database is TDE-encrypted: its data files are always zeroed");
    static readonly FileIfiDecision InstanceIfiOn = new(FileIfi.On, FileIfiReason.InstanceIfiOn, "the instance has IFI");
    static readonly FileIfiDecision InstanceIfiOff = new(FileIfi.Off, FileIfiReason.InstanceIfiOff, "the instance does not have IFI");
    static readonly FileIfiDecision InstanceIfiUnknown = new(FileIfi.Unknown, FileIfiReason.InstanceIfiUnknown,
        "the instance's IFI state is unknown");
    static readonly FileIfiDecision LogAlwaysZeroed = new(FileIfi.Off, FileIfiReason.LogAlwaysZeroed, "log files are always zeroed");
    static readonly FileIfiDecision SmallLogAutogrowthOn2022 = new(FileIfi.On, FileIfiReason.SmallLogAutogrowthOn2022,
        "log autogrowth of 64 MB or less is not zeroed on SQL Server 2022 and later");
    static readonly FileIfiDecision VersionUnknownForSmallLogGrowth = new(FileIfi.Unknown,
        FileIfiReason.VersionUnknownForSmallLogGrowth,
        "version unknown: a log autogrowth of 64 MB or less is zeroed only before SQL Server 2022");
    static readonly FileIfiDecision LogAlwaysZeroedBefore2022 = new(FileIfi.Off, FileIfiReason.LogAlwaysZeroed,
        "log files are always zeroed before SQL Server 2022, whatever the growth size");

    /// <param name="instanceIfi">The instance's IFI flag at the moment that matters.</param>
    /// <param name="autogrowthPages">
    /// The size of one autogrowth being judged, or null when judging the file as a whole (create, restore, manual
    /// growth): the 64 MB log exception applies to autogrowth only.
    /// </param>
    public static FileIfiDecision Decide(IfiState instanceIfi, int majorVersion, bool isAzurePaas, FileType type,
        bool databaseEncrypted, long? autogrowthPages = null)
    {
        if (isAzurePaas)
            return AzurePaas;

        return type switch
        {
            FileType.Rows => DecideData(instanceIfi, databaseEncrypted),
            FileType.Log => DecideLog(majorVersion, autogrowthPages),
            _ => new(FileIfi.NotApplicable, FileIfiReason.NotZeroedFileType,
                $"{type} containers are not zeroed data files"),
        };
    }

    public static FileIfiDecision ForFile(InstanceFacts instance, DatabaseFileFacts file, IReadOnlySet<int> tdeDatabaseIds) =>
        Decide(instance.Ifi.State, instance.MajorVersion, instance.IsAzurePaas, file.Type,
            tdeDatabaseIds.Contains(file.DatabaseId));

    public static IReadOnlyList<FileIfiResult> ForFiles(InstanceFactSet facts)
    {
        var tde = facts.TdeDatabaseIds();
        return facts.Files.Select(f => new FileIfiResult(f, ForFile(facts.Instance, f, tde))).ToList();
    }

    static FileIfiDecision DecideData(IfiState instanceIfi, bool databaseEncrypted)
    {
        // TDE first: even with the privilege, an encrypted database's data files are zeroed, so IFI cannot help.
        if (databaseEncrypted)
            return TdeEncrypted;

        return instanceIfi switch
        {
            IfiState.Enabled => InstanceIfiOn,
            IfiState.Disabled => InstanceIfiOff,
            _ => InstanceIfiUnknown,
        };
    }

    static FileIfiDecision DecideLog(int majorVersion, long? autogrowthPages)
    {
        var smallAutogrowth = autogrowthPages is { } pages && pages <= Pages.SmallLogGrowthLimit;
        if (!smallAutogrowth)
            return LogAlwaysZeroed;

        // The 2022 exception needs neither the privilege nor an unencrypted database, so neither is consulted.
        if (majorVersion >= FirstMajorWithSmallLogGrowthIfi)
            return SmallLogAutogrowthOn2022;
        if (majorVersion <= 0)
            return VersionUnknownForSmallLogGrowth;
        return LogAlwaysZeroedBefore2022;
    }
}

public sealed record FileIfiResult(DatabaseFileFacts File, FileIfiDecision Decision);

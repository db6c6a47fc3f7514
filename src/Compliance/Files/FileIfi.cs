namespace IfiDashboard.Compliance.Files;

/// <summary>Whether a file (or one growth of it) skips zeroing.</summary>
public enum FileIfi
{
    On,
    Off,
    Unknown,
    NotApplicable,
}

/// <summary>Why a file gets the <see cref="FileIfi"/> it gets; one value per rule of docs/compliance.md.</summary>
public enum FileIfiReason
{
    InstanceIfiOn,
    InstanceIfiOff,
    InstanceIfiUnknown,
    TdeEncrypted,
    LogAlwaysZeroed,
    SmallLogAutogrowthOn2022,
    VersionUnknownForSmallLogGrowth,
    AzurePaas,
    NotZeroedFileType,
}

public sealed record FileIfiDecision(FileIfi Ifi, FileIfiReason Reason, string Explanation);

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>What a growth event spent its time on, which decides the bucket its duration is counted in.</summary>
public enum GrowthZeroing
{
    /// <summary>Data file zeroed because the instance lacked IFI: time lost, which IFI would have saved.</summary>
    DataZeroedWithoutIfi,

    /// <summary>
    /// Data file zeroed on an instance whose policy forbids IFI: the cost of that policy, not time lost (granting IFI
    /// there is not an option).
    /// </summary>
    DataZeroedByPolicy,

    /// <summary>Data file zeroed because the database uses TDE: granting IFI would not have helped.</summary>
    DataZeroedByTde,

    /// <summary>Data file grown with IFI: no zeroing.</summary>
    DataNotZeroed,

    /// <summary>Log file zeroed: log files are always zeroed, so not avoidable by IFI.</summary>
    LogZeroed,

    /// <summary>Log autogrowth of 64 MB or less on SQL Server 2022+: not zeroed, privilege or not.</summary>
    LogNotZeroed,

    /// <summary>Neither history nor the current state says whether IFI was on.</summary>
    IfiUnknown,

    /// <summary>Azure SQL Database / Managed Instance.</summary>
    NotApplicable,
}

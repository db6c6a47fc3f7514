namespace IfiDashboard.Compliance.Policy;

public enum DesiredState
{
    /// <summary>The default: growth and restores should not wait for zeroing.</summary>
    Required,

    /// <summary>Sensitive hosts: zeroing keeps the old contents of deleted files out of new data files.</summary>
    Forbidden,

    /// <summary>IFI cannot be configured (Azure SQL Database, Managed Instance) or the policy exempts the host.</summary>
    NotApplicable,
}

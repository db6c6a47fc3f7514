namespace IfiDashboard.Compliance.Status;

public enum ComplianceStatus
{
    Compliant,
    NonCompliant,

    /// <summary>Non-compliant, but an active waiver accepts it for now.</summary>
    Waived,

    /// <summary>The last poll could not tell whether IFI is on; never counted as compliant.</summary>
    Unknown,

    NotApplicable,
}

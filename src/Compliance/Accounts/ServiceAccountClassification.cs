namespace IfiDashboard.Compliance.Accounts;

public sealed record ServiceAccountClassification(
    string Account,
    ServiceAccountKind Kind,
    bool IsOverPrivileged,
    string Explanation);

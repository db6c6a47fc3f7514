using IfiDashboard.Compliance.Accounts;
using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Tests;

public class ServiceAccountClassifierTests
{
    [Theory]
    [InlineData(@"NT Service\MSSQLSERVER", ServiceAccountKind.VirtualAccount)]
    [InlineData(@"NT SERVICE\MSSQL$SALES", ServiceAccountKind.VirtualAccount)]
    [InlineData(@"CORP\gmsa-sql01$", ServiceAccountKind.ManagedServiceAccount)]
    [InlineData("LocalSystem", ServiceAccountKind.LocalSystem)]
    [InlineData(@"NT AUTHORITY\SYSTEM", ServiceAccountKind.LocalSystem)]
    [InlineData(@"NT AUTHORITY\NETWORK SERVICE", ServiceAccountKind.NetworkService)]
    [InlineData(@"NT AUTHORITY\NetworkService", ServiceAccountKind.NetworkService)]
    [InlineData(@"NT AUTHORITY\LOCAL SERVICE", ServiceAccountKind.LocalService)]
    [InlineData(@"CORP\svc-sql", ServiceAccountKind.DomainUser)]
    [InlineData("svc-sql@corp.example.com", ServiceAccountKind.DomainUser)]
    [InlineData(@".\sqlsvc", ServiceAccountKind.LocalUser)]
    [InlineData(@"SQLPROD01\sqlsvc", ServiceAccountKind.LocalUser)]
    [InlineData(@"sqlprod01\sqlsvc", ServiceAccountKind.LocalUser)]
    [InlineData(@"SQLPROD02\sqlsvc", ServiceAccountKind.DomainUser)]
    [InlineData("", ServiceAccountKind.Unknown)]
    [InlineData("sqlsvc", ServiceAccountKind.Unknown)]
    public void Account_forms_are_classified(string account, ServiceAccountKind kind) =>
        Assert.Equal(kind, ServiceAccountClassifier.Classify(account, "SQLPROD01", HostPlatform.Windows).Kind);

    [Fact]
    public void Without_a_machine_name_MACHINE_backslash_user_reads_as_domain_user() =>
        Assert.Equal(ServiceAccountKind.DomainUser, ServiceAccountClassifier.KindOf(@"SQLPROD01\sqlsvc", null));

    [Fact]
    public void LocalSystem_on_Windows_is_over_privileged_and_says_why()
    {
        var result = ServiceAccountClassifier.Classify("LocalSystem", "SQLPROD01", HostPlatform.Windows);

        Assert.True(result.IsOverPrivileged);
        Assert.Contains("full control of the machine", result.Explanation);
    }

    [Fact]
    public void LocalSystem_reported_by_Linux_is_not_over_privileged()
    {
        var result = ServiceAccountClassifier.Classify("LocalSystem", "sqllinux01", HostPlatform.Linux);

        Assert.Equal(ServiceAccountKind.LocalSystem, result.Kind);
        Assert.False(result.IsOverPrivileged);
        Assert.Contains("mssql", result.Explanation);
    }

    [Theory]
    [InlineData(@"NT Service\MSSQLSERVER")]
    [InlineData(@"CORP\gmsa-sql01$")]
    [InlineData(@"CORP\svc-sql")]
    [InlineData(@"NT AUTHORITY\NETWORK SERVICE")]
    public void Other_accounts_are_not_flagged(string account) =>
        Assert.False(ServiceAccountClassifier.Classify(account, "SQLPROD01", HostPlatform.Windows).IsOverPrivileged);
}

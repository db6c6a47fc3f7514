using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>Who a grant or revoke names, where, and how it is verified: the one record the page, script and plan share.</summary>
public class PrivilegeChangeTests
{
    [Theory]
    [InlineData(@"NT Service\MSSQLSERVER", PrivilegeAction.Revoke, new[] { @"NT Service\MSSQLSERVER" }, false)]
    [InlineData(@"CORP\svc-sql", PrivilegeAction.Revoke, new[] { @"NT Service\MSSQLSERVER", @"CORP\svc-sql" }, false)]
    [InlineData(@"CORP\svc-sql", PrivilegeAction.Grant, new[] { @"NT Service\MSSQLSERVER" }, false)]
    [InlineData(@"CORP\gmsa-sql$", PrivilegeAction.Revoke, new[] { @"NT Service\MSSQLSERVER", @"CORP\gmsa-sql$" }, false)]
    [InlineData(@"NT AUTHORITY\NETWORK SERVICE", PrivilegeAction.Revoke, new[] { @"NT Service\MSSQLSERVER", @"NT AUTHORITY\NETWORK SERVICE" }, false)]
    // LocalSystem holds the right by itself: it cannot lose it, so the engine moves to its virtual account.
    [InlineData("LocalSystem", PrivilegeAction.Revoke, new[] { @"NT Service\MSSQLSERVER" }, true)]
    [InlineData("LocalSystem", PrivilegeAction.Grant, new[] { @"NT Service\MSSQLSERVER" }, true)]
    public void Principals_follow_the_start_account(string account, PrivilegeAction action, string[] principals, bool movesOffLocalSystem)
    {
        var change = PrivilegeChange.For(Instance() with { EngineServiceAccount = account }, action);

        Assert.Equal(principals, change.Principals);
        Assert.Equal(movesOffLocalSystem, change.MovesOffLocalSystem);
        Assert.Equal(["SQLPROD01"], change.Hosts);
    }

    [Theory]
    [InlineData("15.0.4385.2", VerifyMethod.ServicesDmv)]
    [InlineData("13.0.4001.0", VerifyMethod.ServicesDmv)]
    [InlineData("13.0.1601.5", VerifyMethod.StartupErrorLog)]
    [InlineData("12.0.5000.0", VerifyMethod.StartupErrorLog)]
    [InlineData("11.0.6020.0", VerifyMethod.HostRights)]
    [InlineData(null, VerifyMethod.DmvOrErrorLog)]
    public void Verification_fits_the_build(string? version, VerifyMethod expected) =>
        Assert.Equal(expected, PrivilegeChange.VerifyFor(version));

    [Fact]
    public void A_cluster_instance_names_its_nodes_and_role_and_none_when_the_nodes_were_not_read()
    {
        var clustered = Instance(IfiState.Disabled) with { IsClustered = true, SqlInstanceName = "SALES", EngineServiceAccount = @"NT Service\MSSQL$SALES" };

        var known = PrivilegeChange.For(clustered with { ClusterNodes = ["N2", "N1"] }, PrivilegeAction.Grant);
        var unknown = PrivilegeChange.For(clustered, PrivilegeAction.Grant);

        Assert.Equal(["N2", "N1"], known.Hosts);
        Assert.Equal(("SQL Server (SALES)", "MSSQL$SALES"), (known.ClusterRole, known.ServiceName));
        Assert.Equal("Move-ClusterGroup -Name 'SQL Server (SALES)' -Node 'N1'", RemediationScript.RestartCommand(known));
        Assert.Empty(unknown.Hosts);
    }

    [Theory]
    [InlineData("plain", "'plain'")]
    [InlineData("o'brien", "'o''brien'")]
    [InlineData("\u2018a\u2019\u201Ab\u201B", "'\u2018\u2018a\u2019\u2019\u201A\u201Ab\u201B\u201B'")]
    [InlineData("$(x) `y` \"z\"", "'$(x) `y` \"z\"'")]
    public void Quoting_doubles_every_single_quote_PowerShell_knows_and_nothing_else(string value, string literal) =>
        Assert.Equal(literal, RemediationScript.Quote(value));
}

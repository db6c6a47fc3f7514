using Dapper;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Tests.Deployment;

/// <summary>
/// deploy/sql/grant-collector-permissions.sql, held to what it claims: on every supported build, a login holding exactly
/// what the script grants there gets every probe through, or the probe's documented limitation on that build. The
/// simulator runs no T-SQL script, so <see cref="ScriptGrants"/> restates the script's branches, and the first test
/// checks that each grant it restates is in the script under that branch's condition.
/// </summary>
public sealed class GrantScriptPermissionsTests
{
    static readonly string Script =
        File.ReadAllText(System.IO.Path.Combine(RepositoryRoot.Path, "deploy", "sql", "grant-collector-permissions.sql"));

    /// <summary>Every SQL Server build the simulator models (Azure SQL Database needs no grant; the script refuses it).</summary>
    public static TheoryData<string> Builds() =>
        [.. VersionProfiles.All.Where(p => p.EngineEdition is not (5 or 8)).Select(p => p.Name)];

    /// <summary>
    /// What the script grants on a build, in the simulator's permission names. The msdb grant (SELECT on backupset) is
    /// not listed: the simulator does not check it.
    /// </summary>
    static List<string> ScriptGrants(VersionProfile build) =>
    [
        build.Major >= 16 ? "VIEW SERVER SECURITY STATE" : "VIEW SERVER STATE",
        "VIEW ANY DEFINITION",
        "ALTER TRACE",
        // sys.dm_os_volume_stats (and the cluster and replica DMVs) from 2022.
        .. build.Major >= 16 ? ["VIEW SERVER PERFORMANCE STATE"] : Array.Empty<string>(),
        // Only where sys.dm_server_services has no IFI column: the start-up line is then the state.
        .. build.HasIfiColumn ? Array.Empty<string>() : ["EXECUTE ON xp_readerrorlog"],
    ];

    [Fact]
    public void The_restated_grants_are_the_scripts()
    {
        Assert.Contains("SET @statement = N'GRANT VIEW SERVER SECURITY STATE TO '", Script);
        Assert.Contains("SET @statement = N'GRANT VIEW SERVER STATE TO '", Script);
        Assert.Contains("SET @statement = N'GRANT VIEW ANY DEFINITION TO '", Script);
        Assert.Contains("SET @statement = N'GRANT ALTER TRACE TO '", Script);
        var performanceState = Script.IndexOf("SET @statement = N'GRANT VIEW SERVER PERFORMANCE STATE TO '", StringComparison.Ordinal);
        Assert.EndsWith("IF @major >= 16\nBEGIN\n    ", Script[..performanceState].ReplaceLineEndings("\n"));
        // The error-log grant, to a user in master, only where the IFI column is missing.
        var errorLogBranch = Script[Script.IndexOf("name = N'instant_file_initialization_enabled'", StringComparison.Ordinal)..];
        Assert.StartsWith("name = N'instant_file_initialization_enabled')", errorLogBranch);
        var createUser = errorLogBranch.IndexOf("N'CREATE USER ' + QUOTENAME(@login) + N' FOR LOGIN '", StringComparison.Ordinal);
        var grant = errorLogBranch.IndexOf("N'GRANT EXECUTE ON sys.xp_readerrorlog TO '", StringComparison.Ordinal);
        Assert.InRange(createUser, 0, grant);
        Assert.True(grant < errorLogBranch.IndexOf("-- 4. msdb", StringComparison.Ordinal), "the grant is inside the branch");
    }

    // Before 2022 sp_readerrorlog checks securityadmin in published copies of its body (Msg 15003): the stricter of
    // the two behaviours the sources describe, so the grants must be enough there.
    [Theory]
    [MemberData(nameof(Builds))]
    public async Task A_login_with_exactly_the_scripts_grants_reads_every_probe(string buildName)
    {
        var build = VersionProfiles.Get(buildName);
        await using var host = new DashboardHost(new ScenarioInstance
        {
            Name = "granted", Profile = build.Name, IfiEnabled = true, ReadErrorLogCheck = ReadErrorLogCheck.SecurityAdminRole,
            Logins = [new ScenarioLogin { Name = DashboardHost.Login, Password = DashboardHost.Password, Permissions = ScriptGrants(build) }],
        });
        await host.RegisterFleetAsync();
        await host.PollAllAsync();

        await using var connection = await host.Store.CreateConnections().OpenAsync(CancellationToken.None);
        var outcomes = (await connection.QueryAsync<(string Probe, string Outcome)>(
            "SELECT o.probe, o.outcome FROM probe_outcomes o JOIN polls p ON p.id = o.poll_id")).ToList();
        var ifi = await connection.QuerySingleAsync<string>("SELECT ifi_state FROM polls");

        Assert.NotEmpty(outcomes);
        Assert.All(outcomes, o => Assert.True(
            o.Outcome is nameof(OutcomeClass.Ok) or nameof(OutcomeClass.NotApplicable) || DocumentedLimitation(build, o),
            $"{build.Name}: probe {o.Probe} answered {o.Outcome} with the script's grants"));
        // 2012 SP3 has neither the IFI column nor the start-up line: unknown is the honest answer there.
        Assert.Equal(build.Name == "2012-SP3" ? nameof(IfiState.Unknown) : nameof(IfiState.Enabled), ifi);
    }

    /// <summary>What a build cannot tell whatever is granted: the services probe and the start-up line on builds without them.</summary>
    static bool DocumentedLimitation(VersionProfile build, (string Probe, string Outcome) outcome) =>
        outcome.Outcome == nameof(OutcomeClass.BuildTooOld) && !build.HasIfiColumn
        && outcome.Probe is ProbeNames.Services or ProbeNames.ErrorLog;
}

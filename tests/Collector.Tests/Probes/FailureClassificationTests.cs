using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>Each way a fleet fails a poll ends as a classified outcome, never as an exception.</summary>
public sealed class FailureClassificationTests
{
    static async Task<InstanceSnapshot> PollAsync(ScenarioInstance instance, EncryptMode encrypt = EncryptMode.Mandatory,
        string? password = ProberFactory.Password, string? credential = ProberFactory.CredentialName, CollectorOptions? options = null)
    {
        await using var fleet = Fleets.Start(instance);
        return await ProberFactory.Create(options, password)
            .PollAsync(ProberFactory.Registration(fleet[instance.Name], encrypt, credential), CancellationToken.None);
    }

    [Fact]
    public async Task Wrong_password_is_login_failed_with_18456()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "sql", Profile = "2019" }, password: "not-the-password");

        var connect = Assert.Single(snapshot.Probes);
        Assert.Equal(OutcomeClass.LoginFailed, connect.Outcome);
        Assert.Equal(18456, connect.SqlErrorNumber);
        Assert.DoesNotContain("not-the-password", connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Login_failure_is_not_retried_into_an_account_lock_out()
    {
        var instance = new ScenarioInstance { Name = "sql", Profile = "2019" };
        await using var fleet = Fleets.Start(instance);

        await ProberFactory.Create(password: "wrong").PollAsync(ProberFactory.Registration(fleet["sql"]), CancellationToken.None);

        Assert.Single(fleet["sql"].Transcript.TextsOf("login-failed"));
    }

    [Fact]
    public async Task Connection_reset_before_prelogin_is_retried_and_the_poll_succeeds()
    {
        var instance = new ScenarioInstance { Name = "flaky", Profile = "2019", IfiEnabled = true, Faults = new() { ResetFirstConnections = 1 } };
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create().PollAsync(ProberFactory.Registration(fleet["flaky"]), CancellationToken.None);

        Assert.True(IfiObservation.From(snapshot).State == IfiState.Enabled, string.Join("; ", snapshot.Probes));
        Assert.Single(fleet["flaky"].Transcript.TextsOf("fault"));
        Assert.Single(fleet["flaky"].Transcript.TextsOf("login"));
    }

    [Fact]
    public async Task Error_number_fault_is_classified_by_its_number()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "denied", Profile = "2019", Faults = new() { ErrorNumber = 229 } });

        var identity = snapshot.Probes.Single(p => p.Probe == ProbeNames.Identity);
        Assert.Equal((OutcomeClass.PermissionMissing, (int?)229), (identity.Outcome, identity.SqlErrorNumber));
    }

    [Fact]
    public async Task Credential_missing_on_the_collector_is_login_failed_naming_the_credential()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "sql", Profile = "2019" }, credential: "nobody-configured-this");

        var connect = Assert.Single(snapshot.Probes);
        Assert.Equal(OutcomeClass.LoginFailed, connect.Outcome);
        Assert.Contains("nobody-configured-this", connect.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("2019", "VIEW SERVER STATE")]
    [InlineData("2022", "VIEW SERVER SECURITY STATE")]
    public async Task Login_without_the_services_permission_is_told_what_to_grant(string profile, string permission)
    {
        var snapshot = await PollAsync(new ScenarioInstance
        {
            Name = "locked", Profile = profile, Logins = [Fleets.LoginWith("ALTER TRACE")],
        });

        var services = snapshot.Probes.Single(p => p.Probe == ProbeNames.Services);
        Assert.Equal(OutcomeClass.PermissionMissing, services.Outcome);
        Assert.Contains($"Grant {permission}", services.Message, StringComparison.Ordinal);
        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.Identity).Outcome);
        Assert.Equal(new IfiObservation(IfiState.Unknown, "permission missing"), IfiObservation.From(snapshot));
    }

    [Fact]
    public async Task Refused_connection_is_unreachable()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "down", Profile = "2019", Faults = new() { RefuseConnections = true } });

        Assert.Equal(OutcomeClass.Unreachable, Assert.Single(snapshot.Probes).Outcome);
    }

    [Fact]
    public async Task Instance_hanging_in_prelogin_is_a_timeout()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "hang", Profile = "2019", Faults = new() { HangInPreLogin = true } },
            options: ProberFactory.FastOptions());

        Assert.Equal(OutcomeClass.Timeout, Assert.Single(snapshot.Probes).Outcome);
    }

    [Fact]
    public async Task Query_slower_than_the_command_timeout_is_a_timeout_and_the_server_sees_the_attention()
    {
        var instance = new ScenarioInstance { Name = "slow", Profile = "2019", Faults = new() { QueryDelayMs = 60_000 } };
        await using var fleet = Fleets.Start(instance);

        var snapshot = await ProberFactory.Create(ProberFactory.FastOptions()).PollAsync(ProberFactory.Registration(fleet["slow"]), CancellationToken.None);

        Assert.Equal(OutcomeClass.Timeout, snapshot.Probes.Single(p => p.Probe == ProbeNames.Identity).Outcome);
        Assert.Contains(fleet["slow"].Transcript.TextsOf("attention"), a => a.Contains("cancelled", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Socket_reset_in_the_middle_of_a_result_is_unreachable()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "flaky", Profile = "2019", Faults = new() { ResetMidResult = true } });

        Assert.Equal(OutcomeClass.Ok, snapshot.Probes.Single(p => p.Probe == ProbeNames.Connect).Outcome);
        Assert.Equal(OutcomeClass.Unreachable, snapshot.Probes.Single(p => p.Probe == ProbeNames.Identity).Outcome);
    }

    [Fact]
    public async Task Server_without_encryption_support_fails_a_mandatory_client_as_tls()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "plain", Profile = "2019", Encryption = EncryptionSupport.NotSupported });

        Assert.Equal(OutcomeClass.TlsError, Assert.Single(snapshot.Probes).Outcome);
    }

    [Fact]
    public async Task Strict_encryption_reaches_a_2022_instance_over_tds_8()
    {
        var instance = new ScenarioInstance { Name = "strict", Profile = "2022", Encryption = EncryptionSupport.Strict, IfiEnabled = true };
        await using var fleet = Fleets.Start(instance);

        using var pins = new PinFolder();
        // Strict ignores TrustServerCertificate: the self-signed certificate is pinned instead.
        var registration = ProberFactory.Registration(fleet["strict"], EncryptMode.Strict) with { ServerCertificatePath = pins.SimulatorCertificate };
        var snapshot = await ProberFactory.Create(pins.Configure(ProberFactory.CredentialSettings(), ProberFactory.CredentialName)).PollAsync(registration, CancellationToken.None);

        Assert.True(IfiObservation.From(snapshot).State == IfiState.Enabled, string.Join("; ", snapshot.Probes));
        Assert.Contains("strict", fleet["strict"].Transcript.TextsOf("encryption"));
    }

    [Fact]
    public async Task Strict_client_against_a_2019_instance_is_a_tls_failure()
    {
        var snapshot = await PollAsync(new ScenarioInstance { Name = "old-tls", Profile = "2019" }, EncryptMode.Strict);

        Assert.Contains(Assert.Single(snapshot.Probes).Outcome, new[] { OutcomeClass.TlsError, OutcomeClass.Unreachable });
    }
}

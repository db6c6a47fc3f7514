using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Tests.Probes;

/// <summary>
/// The advice for what real SqlClient reports: each failure points at the setting that fixes it, and the permission
/// fix names the collector's own login.
/// </summary>
public sealed class ConnectionAdviceTests
{
    static async Task<(ProbeOutcome Outcome, string? Advice)> FirstFailureAsync(ScenarioInstance instance,
        Func<InstanceRegistration, InstanceRegistration>? change = null, CollectorOptions? options = null)
    {
        await using var fleet = Fleets.Start(instance);
        var registration = ProberFactory.Registration(fleet[instance.Name]);
        var snapshot = await ProberFactory.Create(options).PollAsync(change?.Invoke(registration) ?? registration, CancellationToken.None);
        var failure = snapshot.Probes.First(p => p.Outcome is not (OutcomeClass.Ok or OutcomeClass.NotApplicable));
        return (failure, ProbeAdvice.For(failure, snapshot.Identity?.MajorVersion ?? 0, ProberFactory.Login));
    }

    [Fact]
    public async Task Server_that_does_not_support_encryption_is_told_to_get_a_certificate_not_to_trust_one()
    {
        var (outcome, advice) = await FirstFailureAsync(new ScenarioInstance { Name = "plain", Profile = "2019", Encryption = EncryptionSupport.NotSupported });

        Assert.Equal(OutcomeClass.TlsError, outcome.Outcome);
        Assert.Contains("offers no TLS", advice, StringComparison.Ordinal);
        Assert.DoesNotContain("TrustServerCertificate", advice, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Untrusted_self_signed_certificate_is_explained_as_an_untrusted_root()
    {
        var (outcome, advice) = await FirstFailureAsync(new ScenarioInstance { Name = "selfsigned", Profile = "2019" },
            r => r with { TrustServerCertificate = false });

        Assert.Equal(OutcomeClass.TlsError, outcome.Outcome);
        Assert.Contains("Untrusted root", advice, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Prelogin_handshake_timeout_points_at_the_connect_timeout_not_the_command_timeout()
    {
        var (outcome, advice) = await FirstFailureAsync(new ScenarioInstance { Name = "hang", Profile = "2019", Faults = new() { HangInPreLogin = true } },
            options: ProberFactory.FastOptions());

        Assert.Equal((ProbeNames.Connect, OutcomeClass.Timeout), (outcome.Probe, outcome.Outcome));
        Assert.Contains("Collector:ConnectTimeoutSeconds", advice, StringComparison.Ordinal);
        Assert.DoesNotContain("Collector:CommandTimeoutSeconds", advice, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Permission_fix_names_the_collectors_login()
    {
        var (outcome, advice) = await FirstFailureAsync(new ScenarioInstance
        {
            Name = "locked", Profile = "2019", Logins = [Fleets.LoginWith("ALTER TRACE", "VIEW ANY DEFINITION")],
        });

        Assert.Equal((ProbeNames.Services, OutcomeClass.PermissionMissing), (outcome.Probe, outcome.Outcome));
        Assert.Contains($"Grant VIEW SERVER STATE to [{ProberFactory.Login}]", outcome.Message, StringComparison.Ordinal);
        Assert.Contains($"GRANT VIEW SERVER STATE TO [{ProberFactory.Login}]", advice, StringComparison.Ordinal);
    }
}

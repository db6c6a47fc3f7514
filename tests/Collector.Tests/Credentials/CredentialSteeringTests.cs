using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Tests.Credentials;

/// <summary>
/// Whoever can edit the inventory chooses host, port and Encrypt; the collector chooses whether its SQL login goes
/// there. Real listeners check that a registration cannot steer the password to them.
/// </summary>
public sealed class CredentialSteeringTests
{
    const string Credential = ProberFactory.CredentialName;

    static Dictionary<string, string?> CredentialAllowing(string[] hosts, bool allowTrustServerCertificate = false)
    {
        var settings = new Dictionary<string, string?>
        {
            [$"Credentials:{Credential}:UserId"] = ProberFactory.Login,
            [$"Credentials:{Credential}:Password"] = ProberFactory.Password,
            [$"Credentials:{Credential}:AllowTrustServerCertificate"] = allowTrustServerCertificate ? "true" : "false",
        };
        for (var i = 0; i < hosts.Length; i++) settings[$"Credentials:{Credential}:AllowedHosts:{i}"] = hosts[i];
        return settings;
    }

    static InstanceRegistration At(string host, int port, EncryptMode encrypt = EncryptMode.Mandatory, bool trust = false,
        string? credential = Credential) => new()
    {
        Id = 7, Name = "bait", Host = host, Port = port, Encrypt = encrypt, TrustServerCertificate = trust, CredentialName = credential,
    };

    /// <summary>Polls a listener and checks it saw no connection at all; returns the connect probe's outcome.</summary>
    static async Task<ProbeOutcome> RefusedBeforeConnectingAsync(InstanceProber prober, Func<int, InstanceRegistration> at)
    {
        await using var bait = new PreLoginBait();

        var snapshot = await prober.PollAsync(at(bait.Port), CancellationToken.None);
        await bait.SettleAsync();

        Assert.Equal(0, bait.ClientConnections);
        return Assert.Single(snapshot.Probes);
    }

    [Fact]
    public async Task Bait_listener_receives_login7_from_a_client_that_accepts_no_encryption()
    {
        // The attack, without the collector: proves the listener sees LOGIN7 when a client sends it.
        await using var bait = new PreLoginBait();
        await using var connection = new SqlConnection(
            $"Data Source=tcp:127.0.0.1,{bait.Port};User ID=victim;Password=secret;Encrypt=Optional;Connect Timeout=3;Pooling=false");

        await Assert.ThrowsAnyAsync<Exception>(() => connection.OpenAsync());
        await bait.SettleAsync();

        Assert.Equal([PreLoginBait.PreLoginPacket, PreLoginBait.Login7Packet], bait.PacketTypes);
    }

    [Theory]
    [InlineData(EncryptMode.Optional, false)]
    [InlineData(EncryptMode.Optional, true)]
    [InlineData(EncryptMode.Mandatory, true)]
    public async Task Sql_login_never_reaches_a_listener_without_encryption(EncryptMode encrypt, bool trust)
    {
        await using var bait = new PreLoginBait();
        var prober = ProberFactory.Create(CredentialAllowing([LoopbackPorts.AllowListEntry], allowTrustServerCertificate: true));

        var snapshot = await prober.PollAsync(At("127.0.0.1", bait.Port, encrypt, trust), CancellationToken.None);
        await bait.SettleAsync();

        Assert.Contains(PreLoginBait.PreLoginPacket, bait.PacketTypes);
        Assert.False(bait.ReceivedLogin7, string.Join(", ", bait.PacketTypes));
        Assert.Equal(OutcomeClass.TlsError, Assert.Single(snapshot.Probes).Outcome);
    }

    [Theory]
    [InlineData("10.20.0.0/16", "*.prod.bank.local")]
    [InlineData("127.0.0.2")]
    [InlineData("localhost")]
    [InlineData("localhost:1024-65535")]
    // The listener is on the allowed host, on another port than the entry names (an entry without one names 1433).
    [InlineData("127.0.0.1")]
    [InlineData("127.0.0.1:1433")]
    [InlineData("127.0.0.0/8:1433-1434")]
    [InlineData("[::1]:1024-65535", "[::ffff:127.0.0.2]:1024-65535")]
    public async Task Host_outside_the_credentials_allow_list_is_never_connected_to(params string[] allowedHosts)
    {
        var logger = new RecordingLogger<ConnectionStringFactory>();
        var prober = ProberFactory.Create(CredentialAllowing(allowedHosts, allowTrustServerCertificate: true), logger: logger);

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port, EncryptMode.Optional, trust: true));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains($"Credentials:{Credential}:AllowedHosts", connect.Message, StringComparison.Ordinal);
        var warning = Assert.Single(logger.Entries);
        Assert.Equal(LogLevel.Warning, warning.Level);
        Assert.All(new[] { "bait", "127.0.0.1", Credential }, part => Assert.Contains(part, warning.Message, StringComparison.Ordinal));
        Assert.DoesNotContain(ProberFactory.Password, warning.Message + connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Credential_without_an_allow_list_is_used_nowhere_and_says_what_to_configure()
    {
        var prober = ProberFactory.Create(CredentialAllowing([], allowTrustServerCertificate: true));

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains($"Credentials__{Credential}__AllowedHosts__0", connect.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(ProberFactory.Password, connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Malformed_allow_list_entry_makes_the_credential_unusable_naming_the_entry()
    {
        var prober = ProberFactory.Create(CredentialAllowing([LoopbackPorts.AllowListEntry, "10.20.1.0/16"], allowTrustServerCertificate: true));

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains("'10.20.1.0/16'", connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Collector_network_allow_list_refuses_other_hosts_even_without_a_credential()
    {
        var options = ProberFactory.FastOptions();
        options.AllowedNetworks = ["10.0.0.0/8"];
        var prober = ProberFactory.Create(CredentialAllowing([LoopbackPorts.AllowListEntry]), options);

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port, credential: null));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains("Collector:AllowedNetworks", connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Without_a_network_allow_list_an_instance_naming_no_credential_gets_no_integrated_login()
    {
        var prober = ProberFactory.Create(CredentialAllowing([LoopbackPorts.AllowListEntry]));

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port, credential: null));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains("Set Collector:AllowedNetworks", connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Collector_network_allow_list_lets_listed_hosts_through()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "sql", Profile = "2019", IfiEnabled = true });
        // A whole poll is expected to succeed: with the 2-s command timeout of FastOptions it failed once under CI's load.
        var options = ProberFactory.PatientOptions();
        options.AllowedNetworks = ["127.0.0.0/8:1024-65535"];

        var snapshot = await ProberFactory.Create(options).PollAsync(ProberFactory.Registration(fleet["sql"]), CancellationToken.None);

        Assert.Equal(IfiState.Enabled, IfiObservation.From(snapshot).State);
    }

    [Fact]
    public async Task Trusting_a_self_signed_certificate_needs_the_credentials_permission()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "self-signed", Profile = "2019", IfiEnabled = true });
        var instance = fleet["self-signed"];
        var prober = ProberFactory.Create(CredentialAllowing([LoopbackPorts.AllowListEntry], allowTrustServerCertificate: false));

        var snapshot = await prober.PollAsync(At("127.0.0.1", instance.Port, EncryptMode.Optional, trust: true), CancellationToken.None);

        var connect = Assert.Single(snapshot.Probes);
        Assert.Equal(OutcomeClass.InsecureTransportRefused, connect.Outcome);
        Assert.Contains($"Credentials:{Credential}:AllowTrustServerCertificate=true", connect.Message, StringComparison.Ordinal);
        // Refused before connecting: the simulator never even saw a PRELOGIN.
        Assert.Empty(instance.Transcript.Entries);
    }

    [Fact]
    public async Task Unvalidated_self_signed_certificate_gets_no_login()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "self-signed", Profile = "2019", IfiEnabled = true });
        var instance = fleet["self-signed"];
        var prober = ProberFactory.Create(CredentialAllowing([LoopbackPorts.AllowListEntry]));

        var snapshot = await prober.PollAsync(At("127.0.0.1", instance.Port, EncryptMode.Optional), CancellationToken.None);

        Assert.Equal(OutcomeClass.TlsError, Assert.Single(snapshot.Probes).Outcome);
        Assert.NotEmpty(instance.Transcript.TextsOf("encryption"));
        Assert.Empty(instance.Transcript.TextsOf("login"));
    }

    [Fact]
    public async Task Pinned_self_signed_certificate_carries_the_login_without_trusting_any_certificate()
    {
        await using var fleet = Fleets.Start(new ScenarioInstance { Name = "pinned", Profile = "2019", IfiEnabled = true });
        var instance = fleet["pinned"];
        using var pins = new PinFolder();
        var prober = ProberFactory.Create(pins.Configure(CredentialAllowing([LoopbackPorts.AllowListEntry]), ProberFactory.CredentialName));
        var registration = At("127.0.0.1", instance.Port, EncryptMode.Optional) with { ServerCertificatePath = pins.SimulatorCertificate };

        var snapshot = await prober.PollAsync(registration, CancellationToken.None);

        Assert.True(IfiObservation.From(snapshot).State == IfiState.Enabled, string.Join("; ", snapshot.Probes));
        // Encrypt=Optional was registered; the login travelled inside full TLS all the same.
        Assert.Equal(["full"], instance.Transcript.TextsOf("encryption"));
    }

    static Dictionary<string, string?> IntegratedCredentialAllowing(params string[] hosts)
    {
        var settings = new Dictionary<string, string?> { [$"Credentials:{Credential}:IntegratedSecurity"] = "true" };
        for (var i = 0; i < hosts.Length; i++) settings[$"Credentials:{Credential}:AllowedHosts:{i}"] = hosts[i];
        return settings;
    }

    [Fact]
    public async Task Integrated_credential_is_never_used_for_a_host_outside_its_allow_list()
    {
        // Integrated security sends no password, but an NTLM answer can be relayed: it is bound to hosts all the same.
        var prober = ProberFactory.Create(IntegratedCredentialAllowing("*.prod.bank.local", "10.20.0.0/16"));

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains($"Credentials:{Credential}:AllowedHosts", connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Integrated_credential_without_an_allow_list_is_used_nowhere()
    {
        var prober = ProberFactory.Create(IntegratedCredentialAllowing());

        var connect = await RefusedBeforeConnectingAsync(prober, port => At("127.0.0.1", port));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains($"Credentials__{Credential}__AllowedHosts__0", connect.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Integrated_credential_with_a_password_is_unusable_and_says_which_to_remove()
    {
        var settings = IntegratedCredentialAllowing(LoopbackPorts.AllowListEntry);
        settings[$"Credentials:{Credential}:UserId"] = ProberFactory.Login;
        settings[$"Credentials:{Credential}:Password"] = ProberFactory.Password;

        var connect = await RefusedBeforeConnectingAsync(ProberFactory.Create(settings), port => At("127.0.0.1", port));

        Assert.Equal(OutcomeClass.HostNotAllowed, connect.Outcome);
        Assert.Contains($"Credentials:{Credential} sets IntegratedSecurity=true and a UserId or Password", connect.Message, StringComparison.Ordinal);
        Assert.DoesNotContain(ProberFactory.Password, connect.Message, StringComparison.Ordinal);
    }
}

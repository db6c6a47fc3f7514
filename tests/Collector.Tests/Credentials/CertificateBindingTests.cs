using IfiDashboard.Collector.Probes;
using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Collector.Tests.Credentials;

/// <summary>
/// The TLS name a SQL login's server must prove, and the certificate a poll pins, come from the credential, not from
/// whoever edits the inventory. The listener is the simulator completing TLS (TDS 7.x inside PRELOGIN, or TDS 8
/// Strict) with a certificate the collector trusts for this credential (pinned in its CertificateFolder) and valid
/// for "localhost", a name other than the registered host: the attack of a certificate the collector's machine trusts.
/// </summary>
public sealed class CertificateBindingTests
{
    const string Credential = ProberFactory.CredentialName;

    static Dictionary<string, string?> CredentialSettings(params string[] certificateNames)
    {
        var settings = ProberFactory.CredentialSettings();
        settings[$"Credentials:{Credential}:AllowTrustServerCertificate"] = "false";
        for (var i = 0; i < certificateNames.Length; i++) settings[$"Credentials:{Credential}:CertificateNames:{i}"] = certificateNames[i];
        return settings;
    }

    static ScenarioInstance Listener(EncryptMode encrypt) => encrypt == EncryptMode.Strict
        ? new ScenarioInstance { Name = "listener", Profile = "2022", Encryption = EncryptionSupport.Strict, IfiEnabled = true }
        : new ScenarioInstance { Name = "listener", Profile = "2019", IfiEnabled = true };

    /// <summary>
    /// Polls the listener registered at 127.0.0.1 with the TLS name "localhost", its certificate pinned in the
    /// credential's folder, the credential listing <paramref name="certificateName"/>; hands the outcome to the check.
    /// </summary>
    static async Task PollNamingLocalhostAsync(EncryptMode encrypt, string certificateName, Action<InstanceSnapshot, Transcript> check)
    {
        await using var fleet = Fleets.Start(Listener(encrypt));
        using var pins = new PinFolder();
        var prober = ProberFactory.Create(pins.Configure(CredentialSettings(certificateName), ProberFactory.CredentialName));
        var registration = ProberFactory.Registration(fleet["listener"], encrypt) with
        {
            TrustServerCertificate = false, HostNameInCertificate = "localhost", ServerCertificatePath = pins.SimulatorCertificate,
        };

        check(await prober.PollAsync(registration, CancellationToken.None), fleet["listener"].Transcript);
    }

    [Theory]
    [InlineData(EncryptMode.Mandatory)]
    [InlineData(EncryptMode.Strict)]
    public Task Tls_name_the_credential_does_not_list_gets_no_login_from_a_trusted_listener(EncryptMode encrypt) =>
        PollNamingLocalhostAsync(encrypt, "*.prod.bank.local", (snapshot, transcript) =>
        {
            var connect = Assert.Single(snapshot.Probes);
            Assert.Equal(OutcomeClass.InsecureTransportRefused, connect.Outcome);
            Assert.Contains($"Credentials:{Credential}:CertificateNames", connect.Message, StringComparison.Ordinal);
            Assert.DoesNotContain(ProberFactory.Password, connect.Message, StringComparison.Ordinal);
            // Refused before connecting: the listener never saw a PRELOGIN, let alone LOGIN7.
            Assert.Empty(transcript.Entries);
        });

    /// <summary>The same listener and registration, allowed: the login reaches it, so the refusal above is the rule's.</summary>
    [Theory]
    [InlineData(EncryptMode.Mandatory)]
    [InlineData(EncryptMode.Strict)]
    public Task Tls_name_the_credential_lists_is_validated_and_carries_the_login(EncryptMode encrypt) =>
        PollNamingLocalhostAsync(encrypt, "localhost", (snapshot, transcript) =>
        {
            Assert.True(IfiObservation.From(snapshot).State == IfiState.Enabled, string.Join("; ", snapshot.Probes));
            Assert.NotEmpty(transcript.TextsOf("login"));
        });

    /// <summary>Pins the collector must refuse without opening; "{folder}" is the credential's CertificateFolder.</summary>
    public static TheoryData<string, string> RefusedPins => new()
    {
        { @"\\attacker.example\share\c.cer", "not an absolute path" },
        { "//attacker.example/share/c.cer", "not an absolute path" },
        { @"\\.\pipe\c.cer", "not an absolute path" },
        { "https://attacker.example/c.cer", "not an absolute path" },
        { "file:///etc/ssl/certs/ca-certificates.crt", "not an absolute path" },
        { "simulator.pem", "not an absolute path" },
        { "{folder}/../simulator.pem", "not an absolute path" },
        { "/etc/hostname", "is not in the credential's CertificateFolder" },
        { "/dev/zero", "is not in the credential's CertificateFolder" },
        { "{folder}/fifo", "is not a certificate file" },
        { "{folder}/link-to-outside", "link to a file outside" },
        { "{folder}/missing.pem", "is not a certificate file" },
        { "{folder}", "is not in the credential's CertificateFolder" },
        { "{folder}/empty.pem", "is not a certificate file" },
    };

    [Theory]
    [MemberData(nameof(RefusedPins))]
    public async Task Pin_outside_the_credentials_folder_or_not_a_plain_file_there_is_refused_without_connecting(string pin, string reason)
    {
        await using var bait = new PreLoginBait();
        using var pins = new PinFolder();
        pins.Fifo("fifo");
        File.CreateSymbolicLink(Path.Combine(pins.Folder, "link-to-outside"), "/etc/hostname");
        await File.WriteAllTextAsync(Path.Combine(pins.Folder, "empty.pem"), "");
        var prober = ProberFactory.Create(pins.Configure(CredentialSettings(), ProberFactory.CredentialName));
        var registration = new InstanceRegistration
        {
            Id = 7, Name = "bait", Host = "127.0.0.1", Port = bait.Port, Encrypt = EncryptMode.Mandatory, CredentialName = Credential,
            ServerCertificatePath = pin.Replace("{folder}", pins.Folder, StringComparison.Ordinal),
        };

        var snapshot = await prober.PollAsync(registration, CancellationToken.None);
        await bait.SettleAsync();

        var connect = Assert.Single(snapshot.Probes);
        Assert.Equal(OutcomeClass.InsecureTransportRefused, connect.Outcome);
        Assert.Contains(reason, connect.Message, StringComparison.Ordinal);
        Assert.Equal(0, bait.ClientConnections);
    }

    [Fact]
    public async Task Pin_of_a_credential_without_a_certificate_folder_is_refused_naming_the_setting()
    {
        await using var bait = new PreLoginBait();
        using var pins = new PinFolder();
        var prober = ProberFactory.Create(CredentialSettings());
        var registration = new InstanceRegistration
        {
            Id = 7, Name = "bait", Host = "127.0.0.1", Port = bait.Port, CredentialName = Credential, ServerCertificatePath = pins.SimulatorCertificate,
        };

        var connect = Assert.Single((await prober.PollAsync(registration, CancellationToken.None)).Probes);
        await bait.SettleAsync();

        Assert.Equal(OutcomeClass.InsecureTransportRefused, connect.Outcome);
        Assert.Contains($"Credentials:{Credential}:CertificateFolder", connect.Message, StringComparison.Ordinal);
        Assert.Equal(0, bait.ClientConnections);
    }
}

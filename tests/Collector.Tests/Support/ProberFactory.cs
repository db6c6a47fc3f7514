using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Tests.Support;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Collector.Tests.Support;

/// <summary>Builds the real prober with credentials from configuration, as the collector host does.</summary>
internal static class ProberFactory
{
    public const string CredentialName = "fleet_reader";
    public const string Login = "ifi_collector";
    public const string Password = "C0llect!ng-Pw";

    /// <summary>
    /// For the tests of failures that only a timeout ends (a hang in pre-login, a query slower than the command
    /// timeout): they pass these explicitly so that the hang is classified in seconds.
    /// </summary>
    public static CollectorOptions FastOptions() => new()
    {
        Name = "test-collector",
        ConnectTimeoutSeconds = 3,
        CommandTimeoutSeconds = 2,
        PollDeadlineSeconds = 10,
    };

    /// <summary>
    /// The default: timeouts no loaded test machine reaches, so that a probe cut off by a 2-s command timeout
    /// (<see cref="FastOptions"/>) does not fail a test about something else. Under the test command's five jobs on
    /// two cores an archived error-log search took longer than 2 s in a run on an idle machine.
    /// </summary>
    public static CollectorOptions PatientOptions() => new()
    {
        Name = "test-collector",
        ConnectTimeoutSeconds = PatientCollector.ConnectTimeoutSeconds,
        CommandTimeoutSeconds = PatientCollector.CommandTimeoutSeconds,
        PollDeadlineSeconds = PatientCollector.PollDeadlineSeconds,
    };

    /// <summary>The credential as a test fleet needs it: bound to loopback, where the simulator's self-signed certificate is trusted.</summary>
    public static Dictionary<string, string?> CredentialSettings(string? password = Password) => new()
    {
        [$"Credentials:{CredentialName}:UserId"] = Login,
        [$"Credentials:{CredentialName}:Password"] = password,
        [$"Credentials:{CredentialName}:AllowedHosts:0"] = LoopbackPorts.AllowListEntry,
        [$"Credentials:{CredentialName}:AllowTrustServerCertificate"] = "true",
    };

    public static InstanceProber Create(CollectorOptions? options = null, string? password = Password) =>
        Create(CredentialSettings(password), options);

    public static InstanceProber Create(IReadOnlyDictionary<string, string?> settings, CollectorOptions? options = null,
        ILogger<ConnectionStringFactory>? logger = null)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();
        options ??= PatientOptions();
        var connectionStrings = new ConnectionStringFactory(new ConfigurationCredentialResolver(configuration), options,
            logger ?? NullLogger<ConnectionStringFactory>.Instance);
        return new InstanceProber(connectionStrings, options, new GrowthWatermarks(), TimeProvider.System);
    }

    public static InstanceRegistration Registration(SimulatedInstance instance, EncryptMode encrypt = EncryptMode.Mandatory,
        string? credential = CredentialName) => new()
    {
        Id = 1,
        Name = instance.Name,
        Host = "127.0.0.1",
        Port = instance.Port,
        Encrypt = encrypt,
        TrustServerCertificate = true,
        CredentialName = credential,
    };
}

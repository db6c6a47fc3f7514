using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Simulator.Hosting;
using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Collector.Tests.Support;

/// <summary>Builds the real prober with credentials from configuration, as the collector host does.</summary>
internal static class ProberFactory
{
    public const string CredentialName = "fleet_reader";
    public const string Login = "ifi_collector";
    public const string Password = "C0llect!ng-Pw";

    public static CollectorOptions FastOptions() => new()
    {
        Name = "test-collector",
        ConnectTimeoutSeconds = 3,
        CommandTimeoutSeconds = 2,
        PollDeadlineSeconds = 10,
    };

    public static InstanceProber Create(CollectorOptions? options = null, string? password = Password)
    {
        var settings = new Dictionary<string, string?>
        {
            [$"Credentials:{CredentialName}:UserId"] = Login,
            [$"Credentials:{CredentialName}:Password"] = password,
        };
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();
        options ??= FastOptions();
        return new InstanceProber(new ConnectionStringFactory(new ConfigurationCredentialResolver(configuration), options),
            options, new GrowthWatermarks(), TimeProvider.System);
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

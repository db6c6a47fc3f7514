using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Credentials;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// What both loops share: the collector's options and its connection-string factory, with the credential resolved
/// from configuration as the collector host does, so the bare loop connects with byte-for-byte the same string.
/// </summary>
internal sealed class BenchmarkSetup
{
    const string CredentialName = "bench-reader";

    public BenchmarkSetup(int concurrency, IReadOnlyDictionary<string, int> ports, bool anonymousParameters)
    {
        AnonymousParameters = anonymousParameters;
        CollectorOptions = new CollectorOptions { Name = "benchmark", MaxConcurrency = concurrency };
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            [$"Credentials:{CredentialName}:UserId"] = BenchmarkFleet.Login,
            [$"Credentials:{CredentialName}:Password"] = BenchmarkFleet.Password,
            [$"Credentials:{CredentialName}:AllowedHosts:0"] = "127.0.0.1:1024-65535",
            [$"Credentials:{CredentialName}:AllowTrustServerCertificate"] = "true",
        }).Build();
        ConnectionStrings = new ConnectionStringFactory(new ConfigurationCredentialResolver(configuration), CollectorOptions,
            NullLogger<ConnectionStringFactory>.Instance);
        Instances = [.. ports.OrderBy(p => p.Key, StringComparer.Ordinal).Select((p, i) => new InstanceRegistration
        {
            Id = i + 1,
            Name = p.Key,
            Host = "127.0.0.1",
            Port = p.Value,
            Encrypt = EncryptMode.Mandatory,
            TrustServerCertificate = true,
            CredentialName = CredentialName,
        })];
    }

    public CollectorOptions CollectorOptions { get; }
    public ConnectionStringFactory ConnectionStrings { get; }
    public IReadOnlyList<InstanceRegistration> Instances { get; }
    public int Concurrency => CollectorOptions.MaxConcurrency;
    /// <summary>The bare loop passes parameters as anonymous objects (see <see cref="BarePoll"/>).</summary>
    public bool AnonymousParameters { get; }
}

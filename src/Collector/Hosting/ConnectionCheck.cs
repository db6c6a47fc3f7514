using IfiDashboard.Collector.Probes;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Hosting;

/// <summary>
/// <c>IfiDashboard.Collector check --host H [--port P] [--instance I] [--credential NAME] [--encrypt Mandatory]
/// [--trust-server-certificate true] [--host-name-in-certificate NAME] [--server-certificate FILE]</c>: polls one
/// instance once, exactly as the service would (its settings, its credentials, the account and Kerberos environment it
/// runs under), and prints each probe's outcome with the advice the dashboard shows. Run it as the service's user to
/// check a new host, a keytab or an SPN before registering the instance. Nothing is sent to the server. The values
/// follow the rules of a registration (<see cref="InstanceRules"/>): a value the dashboard would refuse is refused
/// here with the same message, naming the field.
/// </summary>
public static class ConnectionCheck
{
    public const string Verb = "check";

    /// <returns>0 when the poll told the IFI state, 1 when it did not, 2 for wrong arguments.</returns>
    public static async Task<int> RunAsync(string[] args, string? contentRoot)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { Args = args, ContentRootPath = contentRoot });
        // Refusals and failures are printed below; the log would only say them twice.
        builder.Logging.SetMinimumLevel(LogLevel.Error);
        builder.AddIfiSecretsFile();
        builder.Services.AddIfiCollector(builder.Configuration, runInBackground: false);
        var registration = Registration(builder.Configuration);
        if (registration is null)
        {
            Console.Error.WriteLine("usage: IfiDashboard.Collector check --host HOST [--port PORT] [--instance NAME] [--credential NAME] " +
                                    "[--encrypt Mandatory|Optional|Strict] [--trust-server-certificate true] [--host-name-in-certificate NAME] " +
                                    "[--server-certificate FILE]");
            return 2;
        }
        if (InstanceRules.Check(registration) is { Count: > 0 } broken)
        {
            foreach (var error in broken) Console.Error.WriteLine($"{error.Path}: {error.Message}");
            return 2;
        }

        using var host = builder.Build();
        var snapshot = await host.Services.GetRequiredService<InstanceProber>().PollAsync(registration, CancellationToken.None);
        var observation = IfiObservation.From(snapshot);
        foreach (var probe in snapshot.Probes)
        {
            Console.WriteLine($"{probe.Probe}\t{probe.Outcome}\t{probe.Message}");
            if (ProbeAdvice.For(probe, snapshot.Identity?.MajorVersion ?? 0) is { } advice && probe.Outcome != OutcomeClass.NotApplicable)
                Console.WriteLine($"  advice: {advice}");
        }
        Console.WriteLine($"IFI\t{observation.State}");
        return observation.State is IfiState.Enabled or IfiState.Disabled ? 0 : 1;
    }

    static InstanceRegistration? Registration(IConfiguration arguments)
    {
        if (arguments["host"] is not { Length: > 0 } host) return null;
        int? port = null;
        if (arguments["port"] is { } portText)
        {
            if (!int.TryParse(portText, out var value)) return null;
            port = value;
        }
        if (!Enum.TryParse<EncryptMode>(arguments["encrypt"] ?? nameof(EncryptMode.Mandatory), ignoreCase: true, out var encrypt)) return null;
        return new InstanceRegistration
        {
            // Not registered, so not named: the rules of a name have nothing to say about a check.
            Name = "check",
            Host = host,
            Port = port,
            InstanceName = arguments["instance"],
            Encrypt = encrypt,
            TrustServerCertificate = arguments.GetValue("trust-server-certificate", false),
            HostNameInCertificate = arguments["host-name-in-certificate"],
            ServerCertificatePath = arguments["server-certificate"],
            CredentialName = arguments["credential"],
        };
    }
}

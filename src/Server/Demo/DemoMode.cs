using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Security;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Server.Demo;

public static class DemoMode
{
    public const string Switch = "--demo";
    /// <summary>The credential name demo instances are registered with; the secret stays in this process's configuration.</summary>
    public const string CredentialName = "demo";

    /// <summary>Splits the demo switch off the arguments, so the host's command-line configuration never sees it.</summary>
    public static (bool Demo, string[] HostArgs) Parse(string[] args) =>
        (args.Contains(Switch, StringComparer.OrdinalIgnoreCase),
         args.Where(a => !a.Equals(Switch, StringComparison.OrdinalIgnoreCase)).ToArray());

    /// <summary>
    /// Loads the demo fleet and gives the embedded collector the simulator's login under the name
    /// <see cref="CredentialName"/>: in memory only, as an operator would give it through the environment.
    /// </summary>
    public static void Configure(WebApplicationBuilder builder)
    {
        builder.Services.AddIfiModule(IfiModuleNames.Demo, IfiModuleNames.Store, IfiModuleNames.Compliance, IfiModuleNames.EmbeddedCollector);
        var scenario = LoadScenario(DateTimeOffset.UtcNow);
        var login = scenario.DefaultLogins.FirstOrDefault()
                    ?? throw new InvalidOperationException("The demo fleet defines no default login.");
        builder.Configuration.AddInMemoryCollection(CredentialSettings(login));
        // One person tries the demo alone: a waiver they grant counts at once, unless they turned four-eyes on.
        if (builder.Configuration[$"{SignInOptions.Section}:{nameof(SignInOptions.WaiversNeedApproval)}"] is null)
            builder.Configuration.AddInMemoryCollection(
                [new($"{SignInOptions.Section}:{nameof(SignInOptions.WaiversNeedApproval)}", "false")]);
        builder.Services.AddSingleton(scenario);
        builder.Services.AddHostedService<DemoFleetHost>();
    }

    /// <summary>The demo fleet with its history moved to end yesterday, as every demo start sees it.</summary>
    public static Scenario LoadScenario(DateTimeOffset now)
    {
        var scenario = DemoScenario.Load();
        ScenarioTimeShift.ShiftHistoryToYesterday(scenario, now);
        return scenario;
    }

    /// <summary>
    /// The demo credential, bound to loopback where the simulated fleet listens, on the unprivileged ports the
    /// simulator's listeners get from the system. The simulator's certificate is
    /// self-signed and made fresh at each start, so the demo allows TrustServerCertificate for this login explicitly.
    /// </summary>
    public static Dictionary<string, string?> CredentialSettings(ScenarioLogin login) => new()
    {
        [$"Credentials:{CredentialName}:UserId"] = login.Name,
        [$"Credentials:{CredentialName}:Password"] = login.Password,
        [$"Credentials:{CredentialName}:AllowedHosts:0"] = "127.0.0.1:1024-65535",
        [$"Credentials:{CredentialName}:AllowTrustServerCertificate"] = "true",
    };
}

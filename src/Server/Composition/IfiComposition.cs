using IfiDashboard.Server.Alerts;
using IfiDashboard.Server.Api;
using IfiDashboard.Server.Collection;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Dashboard;
using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Editing;
using IfiDashboard.Server.Health;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Server.Reports;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Store;
using IfiDashboard.Store.Retention;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Composition;

/// <summary>
/// Which <c>AddIfi*</c> methods a host called, and what each needs from the others (docs/architecture.md,
/// "Composition"). Each method registers only what it owns, in any order; the calls another one needs are checked as
/// the host is built, not while registering, so that the order of the calls never matters, and before any service is
/// made, so that a missing call is named rather than some service it would have registered.
/// </summary>
public static class IfiComposition
{
    /// <summary>Records that <paramref name="module"/> was called and needs each of <paramref name="needs"/> too.</summary>
    public static IServiceCollection AddIfiModule(this IServiceCollection services, string module, params string[] needs)
    {
        services.AddSingleton(new IfiModule(module, needs));
        // The check itself, once, whichever module comes first: the same descriptors in every order. The host reads its
        // own options as it is built, before it makes any other service, so their validation runs the check.
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<HostOptions>, ModulesCheck>());
        return services;
    }

    /// <summary>What is missing: a needed call not made, or a call made twice (its services would run twice).</summary>
    internal static IEnumerable<string> Problems(IReadOnlyCollection<IfiModule> modules)
    {
        var called = modules.Select(m => m.Name).ToHashSet(StringComparer.Ordinal);
        foreach (var twice in modules.GroupBy(m => m.Name).Where(g => g.Count() > 1))
            yield return $"{twice.Key} is called {twice.Count()} times: call it once.";
        foreach (var module in modules.DistinctBy(m => m.Name))
        foreach (var missing in module.Needs.Where(n => !called.Contains(n)))
            yield return $"{module.Name} needs {missing}: call {missing} too (in any order; docs/architecture.md, \"Composition\").";
    }

    sealed class ModulesCheck(IEnumerable<IfiModule> modules) : IValidateOptions<HostOptions>
    {
        public ValidateOptionsResult Validate(string? name, HostOptions options) =>
            Problems(modules.ToList()).ToList() is { Count: > 0 } problems ? ValidateOptionsResult.Fail(problems) : ValidateOptionsResult.Success;
    }
}

/// <summary>The server's modules by the name of the call that registers each, as start-up errors name them.</summary>
public static class IfiModuleNames
{
    public const string Store = nameof(StoreServiceCollectionExtensions.AddIfiStore);
    public const string Retention = nameof(RetentionServiceCollectionExtensions.AddIfiRetention);
    public const string Demo = nameof(DemoMode) + "." + nameof(DemoMode.Configure);
    public const string EmbeddedCollector = nameof(EmbeddedCollectorExtensions.AddIfiEmbeddedCollector);
    public const string Compliance = nameof(ComplianceExtensions.AddIfiCompliance);
    public const string Editing = nameof(EditingExtensions.AddIfiEditing);
    public const string Alerts = nameof(AlertsExtensions.AddIfiAlerts);
    public const string MonthlyEvidenceMail = nameof(MonthlyEvidenceMailExtensions.AddIfiMonthlyEvidenceMail);
    public const string Ingestion = nameof(IngestionApi.AddIfiIngestion);
    public const string CollectorAssignments = nameof(AssignmentsApi.AddIfiCollectorAssignments);
    public const string Api = nameof(ApiExtensions.AddIfiApi);
    public const string DashboardUi = nameof(DashboardUiExtensions.AddIfiDashboardUi);
    public const string DataProtection = nameof(DataProtectionKeys.AddIfiDataProtection);
    public const string Health = nameof(HealthEndpoints.AddIfiHealth);
    public const string SignIn = nameof(SignInExtensions.AddIfiSignIn);
}

/// <summary>One <c>AddIfi*</c> call: its name and the calls it needs.</summary>
public sealed record IfiModule(string Name, IReadOnlyList<string> Needs)
{
    public override string ToString() => Needs.Count == 0 ? Name : $"{Name} (needs {string.Join(", ", Needs)})";
}

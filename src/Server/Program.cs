using IfiDashboard.Collector.Hosting;
using IfiDashboard.Server.Alerts;
using IfiDashboard.Server.Api;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Collection;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Editing;
using IfiDashboard.Server.Health;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Hosting;
using IfiDashboard.Server.Dashboard;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Server.Observability;
using IfiDashboard.Server.Reports;
using IfiDashboard.Server.Store;
using IfiDashboard.Server.Security;
using IfiDashboard.Store.Retention;
using Microsoft.Extensions.Options;

try
{
    if (await ApiKeyCli.TryRunAsync(args)) return;
    if (await BackupCli.TryRunAsync(args)) return;
    var (demo, hostArgs) = DemoMode.Parse(args);
    var builder = ServerHost.CreateBuilder(hostArgs);
    builder.AddIfiServiceHosting();

    builder.Services.AddIfiStore(builder.Configuration);
    builder.Services.AddIfiRetention(builder.Configuration);
    if (demo) DemoMode.Configure(builder);
    builder.Services.AddIfiEmbeddedCollector(builder.Configuration);
    builder.Services.AddIfiCompliance(builder.Configuration);
    builder.Services.AddIfiEditing();
    builder.Services.AddIfiAlerts(builder.Configuration);
    builder.Services.AddIfiMonthlyEvidenceMail(builder.Configuration);
    builder.Services.AddIfiIngestion(builder.Configuration);
    builder.Services.AddIfiCollectorAssignments(builder.Configuration);
    builder.Services.AddIfiApi(builder.Configuration);
    builder.Services.AddIfiDashboardUi();
    builder.Services.AddIfiSecurityHeaders(warnWhenAnyHostIsAllowed: !demo);
    builder.Services.AddIfiDataProtection(builder.Configuration);
    builder.Services.AddIfiHealth();
    builder.AddIfiSignIn(demo);
    builder.AddIfiTelemetry();

    var app = builder.Build();
    // The settings first, with the validators the host's start runs: a wrong one stops the server before it creates,
    // migrates or waits for the store.
    OwnSettingsFirst.Validate(app.Services, builder.Services);
    app.Services.GetService<IStartupValidator>()?.Validate();
    await app.Services.MigrateIfiStoreAsync();

    app.MapIfiHealth();
    app.MapIfiMetrics();
    app.MapIfiSignIn();
    app.MapIfiIngestionApi();
    app.MapIfiApi();
    app.MapIfiDashboardUi();
    app.Run();
}
catch (Exception e) when (ServerStartupAdvice.For(e) is { } advice)
{
    // A wrong setting is not a crash: one line naming it and what to do, no stack trace.
    StartupFailure.Report(ServerStartupAdvice.Deployable, advice);
}

/// <summary>Visible to the functional tests' WebApplicationFactory.</summary>
public partial class Program;

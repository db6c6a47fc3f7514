using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Store.Changes;
using IfiDashboard.Server.Reports;
using IfiDashboard.Server.Compliance;

namespace IfiDashboard.Server.Api.Compliance;

public static class ComplianceApiExtensions
{
    /// <summary>What the compliance endpoints and the changes feed need beyond the fleet assessment itself.</summary>
    public static IServiceCollection AddIfiComplianceApi(this IServiceCollection services)
    {
        services.AddSingleton<ExternalKeys>();
        services.AddSingleton<WindowedZeroing>();
        services.AddSingleton<ChangeJournal>();
        services.AddSingleton<IfiDashboard.Server.Reports.EvidenceReports>();
        services.AddOptions<IfiDashboard.Server.Reports.EvidenceSigningOptions>().BindConfiguration(IfiDashboard.Server.Reports.EvidenceSigningOptions.SectionName);
        services.AddSingleton<IfiDashboard.Server.Reports.EvidenceSigningKey>();
        services.AddSingleton<IfiDashboard.Client.Pages.Reports.IEvidenceReportSource>(sp => sp.GetRequiredService<IfiDashboard.Server.Reports.EvidenceReports>());
        services.AddSingleton<ChangeRecorder>();
        services.AddHostedService<ChangeJournalService>();
        services.AddSingleton<ChangeWebhookSubscriptions>();
        services.AddSingleton<IfiDashboard.Client.Pages.Integrations.IChangeWebhooksEditor>(sp => sp.GetRequiredService<ChangeWebhookSubscriptions>());
        services.AddSingleton<ChangeWebhookDispatcher>();
        services.AddHostedService(sp => sp.GetRequiredService<ChangeWebhookDispatcher>());
        return services;
    }
}

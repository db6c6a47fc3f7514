using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Store.Changes;

namespace IfiDashboard.Server.Api.Compliance;

public static class ComplianceApiExtensions
{
    /// <summary>What the compliance endpoints and the changes feed need beyond the fleet assessment itself.</summary>
    public static IServiceCollection AddIfiComplianceApi(this IServiceCollection services)
    {
        services.AddSingleton<ExternalKeys>();
        services.AddSingleton<WindowedZeroing>();
        services.AddSingleton<ChangeJournal>();
        services.AddSingleton<IfiDashboard.Server.Store.Reports.EvidenceReports>();
        services.AddSingleton<IfiDashboard.Client.Pages.Reports.IEvidenceReportSource>(sp => sp.GetRequiredService<IfiDashboard.Server.Store.Reports.EvidenceReports>());
        services.AddSingleton<ChangeRecorder>();
        services.AddHostedService<ChangeJournalService>();
        return services;
    }
}

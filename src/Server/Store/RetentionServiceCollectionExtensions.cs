using IfiDashboard.Server.Composition;
using IfiDashboard.Store.Retention;

namespace IfiDashboard.Server.Store;

public static class RetentionServiceCollectionExtensions
{
    /// <summary>
    /// Pruning of store history (section <c>Retention</c>, docs/architecture.md): a background pass deletes old
    /// polls, growth events and finished alert mail in small batches. Needs <c>AddIfiStore</c>. Registering the
    /// horizon also makes ingestion skip growth events older than the retention period.
    /// </summary>
    public static IServiceCollection AddIfiRetention(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.Retention, IfiModuleNames.Store);
        var days = $"must be a whole number of days from 1 to {RetentionOptions.MaxDays}";
        services.AddOptions<RetentionOptions>()
            .Bind(configuration.GetSection(RetentionOptions.SectionName))
            .Validate(o => o.PollDays is >= 1 and <= RetentionOptions.MaxDays, $"Retention:PollDays {days}.")
            .Validate(o => o.GrowthEventDays is >= RetentionOptions.MinGrowthEventDays and <= RetentionOptions.MaxDays,
                $"Retention:GrowthEventDays must be from {RetentionOptions.MinGrowthEventDays} to {RetentionOptions.MaxDays} days: " +
                $"the compliance report's longest window reads the last {RetentionOptions.MinGrowthEventDays} days of growth events.")
            .Validate(o => o.AlertOutboxDays is >= 1 and <= RetentionOptions.MaxDays, $"Retention:AlertOutboxDays {days}.")
            .Validate(o => o.AuditDays is >= RetentionOptions.MinAuditDays and <= RetentionOptions.MaxDays,
                $"Retention:AuditDays must be from {RetentionOptions.MinAuditDays} to {RetentionOptions.MaxDays} days: " +
                "the evidence report reads the audit log of periods up to 366 days long.")
            .Validate(o => o.IntervalMinutes is >= 1 and <= 7 * 24 * 60, "Retention:IntervalMinutes must be from 1 to 10080 (a week).")
            .Validate(o => o.BatchSize is >= 1 and <= RetentionOptions.MaxBatchSize,
                $"Retention:BatchSize must be from 1 to {RetentionOptions.MaxBatchSize} rows.")
            .Validate(o => o.BatchPauseMilliseconds is >= 0 and <= 60_000, "Retention:BatchPauseMilliseconds must be from 0 to 60000.")
            .ValidateOnStart();

        services.AddSingleton<RetentionHorizon>();
        services.AddSingleton<RetentionLease>();
        services.AddSingleton<RetentionPruner>();
        services.AddHostedService<RetentionService>();
        return services;
    }
}

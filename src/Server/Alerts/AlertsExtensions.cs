using IfiDashboard.Client.Pages;
using IfiDashboard.Server.Alerts.Delivery;
using IfiDashboard.Server.Alerts.Smtp;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Server.Composition;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Changes;

namespace IfiDashboard.Server.Alerts;

public static class AlertsExtensions
{
    /// <summary>
    /// E-mail alerts (section <c>Alerts</c>, docs/alerts.md): the rules run over each fleet assessment, messages go
    /// through the outbox to the SMTP relay. Needs <c>AddIfiStore</c> and <c>AddIfiCompliance</c>. The pages and the test email work with
    /// <c>Alerts:Enabled=false</c>, so the relay can be tried before alerts are switched on.
    /// </summary>
    public static IServiceCollection AddIfiAlerts(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.Alerts, IfiModuleNames.Store, IfiModuleNames.Compliance);
        services.AddOptions<AlertOptions>()
            .Bind(configuration.GetSection(AlertOptions.SectionName))
            .Validate(o => !o.Enabled || !string.IsNullOrWhiteSpace(o.Smtp.Host), "Alerts:Smtp:Host is required when Alerts:Enabled is true.")
            .Validate(o => !o.Enabled || !string.IsNullOrWhiteSpace(o.Smtp.From), "Alerts:Smtp:From is required when Alerts:Enabled is true.")
            .Validate(o => o.Smtp.Port is >= 0 and <= 65535, "Alerts:Smtp:Port must be between 0 (the usual port) and 65535.")
            .Validate(o => o.Smtp.TimeoutSeconds > 0, "Alerts:Smtp:TimeoutSeconds must be positive.")
            .Validate(o => o.Delivery.MaxAttempts >= 1 && o.Delivery.FirstRetryDelay > TimeSpan.Zero && o.Delivery.MaxRetryDelay >= o.Delivery.FirstRetryDelay,
                "Alerts:Delivery needs MaxAttempts >= 1 and 0 < FirstRetryDelay <= MaxRetryDelay.")
            .Validate(o => string.IsNullOrEmpty(o.DashboardUrl) || Uri.TryCreate(o.DashboardUrl, UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https",
                "Alerts:DashboardUrl must be an absolute http(s) address.")
            .Validate(o => o.Routes.All(r => r.To.Count > 0), "Every Alerts:Routes entry needs at least one To address.")
            .Validate(o => o.Storm.Threshold >= 1 && o.Storm.Window > TimeSpan.Zero,
                "Alerts:Storm:Threshold must be at least 1 and Alerts:Storm:Window positive.")
            .ValidateOnStart();
        // Each problem named on its own, not one fixed message: which webhook, which setting.
        services.AddSingleton<IValidateOptions<AlertOptions>, WebhookValidation>();
        // The store reads the same section's recipients for the collector mail it writes (AlertRecipientOptions is its part).
        services.AddSingleton<IOptions<AlertRecipientOptions>>(sp => sp.GetRequiredService<IOptions<AlertOptions>>());

        services.AddSingleton<SmtpMailClient>();
        // No redirects: a webhook that answers with one is misconfigured, and following it could carry the alert elsewhere.
        // Nor the factory's request logging: its lines carry the URL, and a chat webhook's URL is its credential.
        services.AddHttpClient(WebhookSender.HttpClientName)
            .ConfigurePrimaryHttpMessageHandler(() => new SocketsHttpHandler { AllowAutoRedirect = false })
            .RemoveAllLoggers();
        services.AddSingleton<WebhookSender>();
        // Change webhooks (docs/api.md) go out through this outbox and its delivery loop too.
        services.AddSingleton<IfiDashboard.Store.Changes.ChangeWebhookStore>();
        services.AddSingleton<ChangeWebhookSecrets>();
        services.AddSingleton<ChangeWebhookSender>();
        services.AddSingleton<AlertSettingsStore>();
        services.AddSingleton<AlertSettings>();
        services.AddSingleton<AlertSilenceStore>();
        services.AddSingleton<IAlertSilences, AlertSilencing>();
        services.AddSingleton<AlertStateStore>();
        services.AddSingleton<FailoverAlertStore>();
        services.AddSingleton<OutboxStore>();
        services.AddSingleton<OutboxDelivery>();
        services.AddHostedService(sp => sp.GetRequiredService<OutboxDelivery>());
        services.AddSingleton<AlertEvaluation>();
        services.AddHostedService(sp => sp.GetRequiredService<AlertEvaluation>());
        services.AddSingleton<IAlertsView, AlertsView>();
        return services;
    }
}

/// <summary>Refuses start-up naming each webhook problem (<see cref="AlertOptions.WebhookProblems"/>).</summary>
sealed class WebhookValidation : IValidateOptions<AlertOptions>
{
    public ValidateOptionsResult Validate(string? name, AlertOptions options) =>
        options.WebhookProblems().ToList() is { Count: > 0 } problems ? ValidateOptionsResult.Fail(problems) : ValidateOptionsResult.Success;
}

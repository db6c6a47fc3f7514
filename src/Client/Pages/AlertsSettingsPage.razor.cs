using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages;

/// <summary>
/// The effective alert rules, routes and relay (never the password), and a form that sends a test email at once and
/// shows what the relay answered. A plain HTML form handled by static SSR (docs/decisions/0003).
/// </summary>
public partial class AlertsSettingsPage
{
    [Inject] IAlertsView Alerts { get; set; } = null!;

    [SupplyParameterFromForm(FormName = "test-email")]
    public string? To { get; set; }

    AlertSettingsSummary _settings = null!;
    TestEmailOutcome? _result;

    protected override void OnInitialized() => _settings = Alerts.Settings();

    async Task SendTestAsync()
    {
        _result = string.IsNullOrWhiteSpace(To)
            ? new TestEmailOutcome(false, "Choose a recipient.")
            : await Alerts.SendTestAsync(To, CancellationToken.None);
    }

    string Login() => _settings.SmtpUserName is null
        ? "none (the relay accepts this server without a login)"
        : $"{_settings.SmtpUserName}, password {(_settings.SmtpPasswordSet ? "set" : "NOT set")}";
}

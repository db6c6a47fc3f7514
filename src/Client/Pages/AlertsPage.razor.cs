using System.Globalization;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages;

/// <summary>
/// The alert history: recent outbox rows, with failures and their reasons in plain sight; alerts follow assessments,
/// so the page reads the history again as each one lands.
/// </summary>
public partial class AlertsPage
{
    const int Shown = 200;

    [Inject] IAlertsView Alerts { get; set; } = null!;
    [Inject] IAlertSilences Silences { get; set; } = null!;

    IReadOnlyList<AlertHistoryItem>? _rows;
    IReadOnlyList<SilenceView> _silences = [];
    string? _whyNoneAreSent;
    string? _loadError;

    protected override async Task LoadAsync()
    {
        try
        {
            _whyNoneAreSent = (await Alerts.SettingsAsync(PageClosed)).WhyNoneAreSent;
            _rows = await Alerts.RecentAsync(Shown, PageClosed);
            _silences = await Silences.ActiveAsync(PageClosed);
            _loadError = null;
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading the alert history", e);
        }
    }

    static string Moment(DateTimeOffset value) => value.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);

    static string StatusClass(string status) => status switch
    {
        "Sent" => "badge-on",
        "Failed" => "badge-off",
        "Silenced" => "st-na",
        _ => "badge-unknown",
    };

    static string Delivery(AlertHistoryItem row) => row.Status switch
    {
        "Sent" => $"sent {Moment(row.SentAt ?? row.CreatedAt)}",
        "Failed" => $"gave up: {row.LastError}",
        "Silenced" when row.SilencedBy is { } s =>
            $"not sent: {AlertSilencesPage.KindText(s.Kind)} by {s.CreatedBy} until {Moment(s.ExpiresAt)}: {s.Reason}",
        "Silenced" => "not sent: silenced",
        _ when row.LastError is not null => $"retry at {Moment(row.NextAttemptAt ?? row.CreatedAt)}; last error: {row.LastError}",
        _ => "waiting to be sent",
    };
}

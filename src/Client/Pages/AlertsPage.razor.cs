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

    IReadOnlyList<AlertHistoryItem>? _rows;
    string? _whyNoneAreSent;
    string? _loadError;

    protected override async Task LoadAsync()
    {
        try
        {
            _whyNoneAreSent = Alerts.Settings().WhyNoneAreSent;
            _rows = await Alerts.RecentAsync(Shown, CancellationToken.None);
            _loadError = null;
        }
        catch (Exception e)
        {
            _loadError = e.Message;
        }
    }

    static string Moment(DateTimeOffset value) => value.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture);

    static string StatusClass(string status) => status switch
    {
        "Sent" => "badge-on",
        "Failed" => "badge-off",
        _ => "badge-unknown",
    };

    static string Delivery(AlertHistoryItem row) => row.Status switch
    {
        "Sent" => $"sent {Moment(row.SentAt ?? row.CreatedAt)}",
        "Failed" => $"gave up: {row.LastError}",
        _ when row.LastError is not null => $"retry at {Moment(row.NextAttemptAt ?? row.CreatedAt)}; last error: {row.LastError}",
        _ => "waiting to be sent",
    };
}

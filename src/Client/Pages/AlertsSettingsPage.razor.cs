using IfiDashboard.Client.Components;
using System.Globalization;
using System.Security.Claims;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages;

/// <summary>
/// The effective alert rules, routes and relay (never the password); for Administrators a form that switches each
/// rule and sets the re-notify interval (stored, audited, applied from the next evaluation), and a form that sends a
/// test email at once and shows what the relay answered. Plain HTML forms handled by static SSR (docs/decisions/0003).
/// </summary>
public partial class AlertsSettingsPage
{
    [Inject] IAlertsView Alerts { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;
    [CascadingParameter] HttpContext? HttpContext { get; set; }

    ClaimsPrincipal User => HttpContext?.User ?? new ClaimsPrincipal();

    [SupplyParameterFromForm(FormName = "test-email")]
    public string? To { get; set; }

    [SupplyParameterFromForm(FormName = "alert-settings")]
    public AlertSettingsForm? Change { get; set; }

    [SupplyParameterFromQuery(Name = "done")] public string? Done { get; set; }

    readonly FormErrors _errors = new();
    // Null until the store has answered: on PostgreSQL the read completes after the first render.
    AlertSettingsSummary? _settings;
    TestEmailOutcome? _result;
    string? _message;
    bool _failed;

    bool CanEdit => User.HasAtLeast(DashboardRoles.Administrator);

    protected override async Task OnInitializedAsync()
    {
        _settings = await Alerts.SettingsAsync(PageClosed);
        if (Done == "saved") _message = "Alert settings saved. The next alert evaluation uses them.";
    }

    async Task SendTestAsync()
    {
        _result = string.IsNullOrWhiteSpace(To)
            ? new TestEmailOutcome(false, "Choose a recipient.")
            : await Alerts.SendTestAsync(To, CancellationToken.None);
    }

    async Task SaveAsync()
    {
        if (Change?.ToChange(_errors) is not { } change)
        {
            Fail("The alert settings were not saved: correct the fields marked below.");
            return;
        }
        try
        {
            await Alerts.SaveSettingsAsync(change, User, CancellationToken.None);
        }
        catch (UnauthorizedAccessException refused)
        {
            if (HttpContext is { Response.HasStarted: false } http) http.Response.StatusCode = StatusCodes.Status403Forbidden;
            Fail($"The alert settings were not saved: {refused.Message}");
            return;
        }
        catch (ArgumentException refused)
        {
            _errors.Add(AlertSettingsForm.RenotifyField, WaiverGrant.MessageOf(refused));
            Fail("The alert settings were not saved: correct the fields marked below.");
            return;
        }
        catch (Exception e)
        {
            Fail($"The alert settings could not be saved: {Failures.Logged("Saving the alert settings", e)}");
            return;
        }
        Navigation.NavigateTo("alerts/settings?done=saved");
    }

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }

    static string Login(AlertSettingsSummary settings) => settings.SmtpUserName is null
        ? "none (the relay accepts this server without a login)"
        : $"{settings.SmtpUserName}, password {(settings.SmtpPasswordSet ? "set" : "NOT set")}";
}

/// <summary>The alert settings form: a checkbox per rule (named as the rule) and the re-notify interval in hours.</summary>
public sealed class AlertSettingsForm
{
    public const string RenotifyField = "Change.RenotifyHours";

    public bool NonCompliant { get; set; }
    public bool Unknown { get; set; }
    public bool WaiverExpiring { get; set; }
    public bool Recovery { get; set; }
    public bool Failover { get; set; }
    public bool FailoverNotice { get; set; }
    public string? RenotifyHours { get; set; }

    public static string Field(string rule) => "Change." + rule;

    /// <summary>The switch as posted for the rule named <paramref name="rule"/>; null for a rule the form does not edit.</summary>
    public bool? IsOn(string rule) => rule switch
    {
        nameof(NonCompliant) => NonCompliant,
        nameof(Unknown) => Unknown,
        nameof(WaiverExpiring) => WaiverExpiring,
        nameof(Recovery) => Recovery,
        nameof(Failover) => Failover,
        nameof(FailoverNotice) => FailoverNotice,
        _ => null,
    };

    /// <summary>Hours as a person writes them ("24", "0.5"); the server checks the bounds.</summary>
    public static string Hours(TimeSpan interval) => interval.TotalHours.ToString("0.##", CultureInfo.InvariantCulture);

    public AlertSettingsChange? ToChange(FormErrors errors)
    {
        if (!decimal.TryParse(RenotifyHours?.Trim(), NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var hours) || hours > 24 * 365)
        {
            errors.Add(RenotifyField, "Hours as a number, e.g. 24 or 0.5; 0 for no reminders.");
            return null;
        }
        return new AlertSettingsChange(NonCompliant, Unknown, WaiverExpiring, Recovery, TimeSpan.FromMinutes((double)Math.Round(hours * 60)),
            Failover, FailoverNotice);
    }
}

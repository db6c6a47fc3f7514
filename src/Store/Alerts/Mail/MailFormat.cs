using System.Globalization;
using System.Net;
using IfiDashboard.Compliance;

namespace IfiDashboard.Store.Alerts.Mail;

/// <summary>Culture-independent wording shared by every message.</summary>
internal static class MailFormat
{
    public static string Moment(DateTimeOffset value) => ComplianceFormat.Moment(value.ToUniversalTime());

    /// <summary>"11.6 s", "3 min 20 s", "2 h 5 min", "3 d 4 h": precise where it is small, short where it is long.</summary>
    public static string Duration(TimeSpan value)
    {
        if (value < TimeSpan.FromMinutes(1)) return value.TotalSeconds.ToString("0.#", CultureInfo.InvariantCulture) + " s";
        if (value < TimeSpan.FromHours(1)) return $"{(int)value.TotalMinutes} min {value.Seconds} s";
        if (value < TimeSpan.FromDays(1)) return $"{(int)value.TotalHours} h {value.Minutes} min";
        return $"{(int)value.TotalDays} d {value.Hours} h";
    }

    /// <summary>The instance page, or null when <c>Alerts:DashboardUrl</c> is not set (a relative link is useless in mail).</summary>
    public static string? InstanceLink(string? dashboardUrl, long instanceId) =>
        string.IsNullOrWhiteSpace(dashboardUrl) ? null : $"{dashboardUrl.TrimEnd('/')}/instances/{instanceId}";

    /// <summary>
    /// The page that offers to acknowledge or snooze the instance's alert, or null without <c>Alerts:DashboardUrl</c>.
    /// A page with a form, never a link that changes anything: mail scanners open links, and the person must sign in.
    /// </summary>
    public static string? SilenceLink(string? dashboardUrl, long instanceId) =>
        string.IsNullOrWhiteSpace(dashboardUrl) ? null : $"{dashboardUrl.TrimEnd('/')}/alerts/silences?instance={instanceId}";

    public static string Html(string text) => WebUtility.HtmlEncode(text);
}

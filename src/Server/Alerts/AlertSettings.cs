using System.Globalization;
using System.Security.Claims;
using IfiDashboard.Client.Pages;
using IfiDashboard.Store;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Alerts;

/// <summary>
/// The alert options in effect: the configuration, with the rule switches and the re-notify interval an Administrator
/// changed on /alerts/settings over it. Read from the store by every evaluation, so a change applies from the next one
/// without a restart, on every server sharing the store.
/// </summary>
public sealed class AlertSettings(AlertSettingsStore store, IOptions<AlertOptions> options)
{
    public async Task<(AlertOptions Effective, StoredAlertSettings Stored)> GetAsync(CancellationToken ct)
    {
        var stored = await store.GetAsync(ct);
        return (options.Value.WithOverrides(stored.Values), stored);
    }

    /// <exception cref="UnauthorizedAccessException">The user is not an Administrator.</exception>
    /// <exception cref="ArgumentException">The re-notify interval is out of bounds (ParamName <c>renotifyInterval</c>).</exception>
    public async Task SaveAsync(AlertSettingsChange change, ClaimsPrincipal by, CancellationToken ct)
    {
        if (!by.HasAtLeast(DashboardRoles.Administrator))
            throw new UnauthorizedAccessException($"Only an {DashboardRoles.Administrator} may change the alert settings.");
        var renotify = change.RenotifyInterval;
        if (renotify != TimeSpan.Zero && (renotify < AlertOptions.Editable.MinRenotify || renotify > AlertOptions.Editable.MaxRenotify))
            throw new ArgumentException(
                $"0 for no reminders, or from {AlertOptions.Editable.MinRenotify.TotalMinutes:0} minutes to {AlertOptions.Editable.MaxRenotify.TotalDays:0} days.",
                "renotifyInterval");
        var author = ChangeAuthor.Of(by);
        var values = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            [AlertOptions.Editable.NonCompliant] = Text(change.NonCompliant),
            [AlertOptions.Editable.Unknown] = Text(change.Unknown),
            [AlertOptions.Editable.WaiverExpiring] = Text(change.WaiverExpiring),
            [AlertOptions.Editable.Recovery] = Text(change.Recovery),
            [AlertOptions.Editable.Failover] = Text(change.Failover),
            [AlertOptions.Editable.FailoverNotice] = Text(change.FailoverNotice),
            [AlertOptions.Editable.RenotifyInterval] = renotify.ToString("c", CultureInfo.InvariantCulture),
        };
        await StoreBusy.ForPersonAsync(async () =>
        {
            await store.SaveAsync(values, author, ct);
            return true;
        });
    }

    static string Text(bool value) => value ? "true" : "false";
}

namespace IfiDashboard.Client.Pages;

/// <summary>What the alert pages read and do; the server implements it over the outbox, the settings and the relay.</summary>
public interface IAlertsView
{
    /// <summary>The newest outbox rows first.</summary>
    Task<IReadOnlyList<AlertHistoryItem>> RecentAsync(int count, CancellationToken ct);

    /// <summary>The effective settings (configuration, with what Administrators changed here over it), without the password.</summary>
    Task<AlertSettingsSummary> SettingsAsync(CancellationToken ct);

    /// <summary>Stores the rule switches and the re-notify interval over the configuration's; audited, applied from the next evaluation.</summary>
    /// <exception cref="UnauthorizedAccessException">The user is not an Administrator.</exception>
    /// <exception cref="ArgumentException">The re-notify interval is out of bounds.</exception>
    Task SaveSettingsAsync(AlertSettingsChange change, System.Security.Claims.ClaimsPrincipal by, CancellationToken ct);

    /// <summary>Sends a test message now, to one of the configured recipients, and says what the relay answered.</summary>
    Task<TestEmailOutcome> SendTestAsync(string to, CancellationToken ct);
}

public sealed record AlertHistoryItem(
    long Id,
    DateTimeOffset CreatedAt,
    string Kind,
    string? Rule,
    long? InstanceId,
    string? InstanceName,
    string Subject,
    IReadOnlyList<string> Recipients,
    string Status,
    int Attempts,
    DateTimeOffset? NextAttemptAt,
    DateTimeOffset? SentAt,
    string? LastError,
    IfiDashboard.Shared.Alerts.AlertSilence? SilencedBy = null);

public sealed record AlertSettingsSummary(
    bool Enabled,
    string? DashboardUrl,
    string SmtpHost,
    int SmtpPort,
    string SmtpSecurity,
    string SmtpFrom,
    string? SmtpUserName,
    bool SmtpPasswordSet,
    IReadOnlyList<AlertRuleSummary> Rules,
    IReadOnlyList<AlertRouteSummary> Routes,
    IReadOnlyList<string> DefaultTo,
    string Renotify,
    string Digest,
    string Delivery,
    TimeSpan RenotifyInterval = default,
    string? ChangedBy = null,
    DateTimeOffset? ChangedAt = null)
{
    /// <summary>Every address the alerts can go to: the test email may only go to one of these.</summary>
    public IReadOnlyList<string> AllRecipients =>
        DefaultTo.Concat(Routes.SelectMany(r => r.To)).Distinct(StringComparer.OrdinalIgnoreCase).ToList();

    /// <summary>
    /// Why no alert reaches anyone, and what to set, or null when alerts go out. An empty history otherwise reads as
    /// "nothing went wrong". With alerts on, the server refuses to start without Alerts:Smtp:Host, so only the
    /// switch and the recipients can be missing.
    /// </summary>
    public string? WhyNoneAreSent =>
        !Enabled
            ? "Alerts are off: nothing is evaluated or sent. To turn them on, set Alerts:Enabled=true, the mail relay " +
              "(Alerts:Smtp:Host and Alerts:Smtp:From) and who hears about what (Alerts:DefaultTo or Alerts:Routes, mail " +
              "addresses or webhook:<name> with Alerts:Webhooks:<name>), then restart the server."
            : AllRecipients.Count == 0
                ? "Alerts are on but go to nobody: each one is stored as Failed (no recipients). Set Alerts:DefaultTo or " +
                  "Alerts:Routes:N:To, then restart the server."
                : null;
}

public sealed record AlertRuleSummary(string Name, bool Enabled, string Detail);

/// <summary>What an Administrator sets on /alerts/settings: each rule on or off, and the reminder interval (zero for none).</summary>
public sealed record AlertSettingsChange(bool NonCompliant, bool Unknown, bool WaiverExpiring, bool Recovery, TimeSpan RenotifyInterval,
    bool Failover = false, bool FailoverNotice = false);

public sealed record AlertRouteSummary(int Order, string Match, IReadOnlyList<string> To);

public sealed record TestEmailOutcome(bool Succeeded, string Message);

/// <summary>
/// Acknowledgements, snoozes and silences (docs/alerts.md#silences): what the alert pages list and what their forms
/// change. Each change takes the signed-in user, recorded as its author and audited; Operators and Administrators may
/// make them.
/// </summary>
public interface IAlertSilences
{
    /// <summary>The silences in force, the soonest to end first, with the instance names they cover.</summary>
    Task<IReadOnlyList<SilenceView>> ActiveAsync(CancellationToken ct);

    /// <summary>The rules with an open alert episode on the instance (empty when nothing is alerting there).</summary>
    Task<IReadOnlyList<string>> OpenAlertsAsync(long instanceId, CancellationToken ct);

    /// <summary>Stores a new acknowledgement, snooze or silence; an acknowledgement's end is set here (the maximum).</summary>
    /// <exception cref="ArgumentException">A field breaks its rule (<see cref="ArgumentException.ParamName"/> names it).</exception>
    /// <exception cref="UnauthorizedAccessException">The user may not silence alerts.</exception>
    Task<long> CreateAsync(SilenceRequest request, System.Security.Claims.ClaimsPrincipal by, CancellationToken ct);

    /// <summary>Ends an active silence now.</summary>
    /// <returns>False when no active silence has that id.</returns>
    /// <exception cref="UnauthorizedAccessException">The user may not end silences.</exception>
    Task<bool> EndAsync(long id, System.Security.Claims.ClaimsPrincipal by, CancellationToken ct);
}

/// <summary>What a form asks for: one scope (instance, environment or tag), a reason, and an end (not for an acknowledgement).</summary>
public sealed record SilenceRequest(IfiDashboard.Shared.Alerts.SilenceKind Kind, long? InstanceId, string? Environment, string? Tag,
    string Reason, DateTimeOffset? ExpiresAt);

/// <summary>A silence in force, with the scope in words ("instance sql01").</summary>
public sealed record SilenceView(IfiDashboard.Shared.Alerts.AlertSilence Silence, string Scope);

namespace IfiDashboard.Client.Pages;

/// <summary>What the alert pages read and do; the server implements it over the outbox, the settings and the relay.</summary>
public interface IAlertsView
{
    /// <summary>The newest outbox rows first.</summary>
    Task<IReadOnlyList<AlertHistoryItem>> RecentAsync(int count, CancellationToken ct);

    /// <summary>The effective settings, without the password.</summary>
    AlertSettingsSummary Settings();

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
    string? LastError);

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
    string Delivery)
{
    /// <summary>Every address the alerts can go to: the test email may only go to one of these.</summary>
    public IReadOnlyList<string> AllRecipients =>
        DefaultTo.Concat(Routes.SelectMany(r => r.To)).Distinct(StringComparer.OrdinalIgnoreCase).ToList();
}

public sealed record AlertRuleSummary(string Name, bool Enabled, string Detail);

public sealed record AlertRouteSummary(int Order, string Match, IReadOnlyList<string> To);

public sealed record TestEmailOutcome(bool Succeeded, string Message);

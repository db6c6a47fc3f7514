using IfiDashboard.Server.Alerts.Smtp;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Store.Alerts;

namespace IfiDashboard.Server.Alerts;

/// <summary>The <c>Alerts</c> configuration section; docs/alerts.md describes every key with examples.</summary>
public sealed class AlertOptions : AlertRecipientOptions
{
    public const string SectionName = "Alerts";

    /// <summary>Off by default: nothing is evaluated or sent until a relay and recipients are configured.</summary>
    public bool Enabled { get; set; }

    /// <summary>The dashboard's public address, for the link in each mail (<c>{DashboardUrl}/instances/{id}</c>).</summary>
    public string? DashboardUrl { get; set; }

    /// <summary>Evaluated in order; the first route whose criteria all match an instance decides its recipients.</summary>
    public List<AlertRoute> Routes { get; set; } = [];

    /// <summary>While a problem lasts, a reminder after this long; zero for none.</summary>
    public TimeSpan RenotifyInterval { get; set; } = TimeSpan.FromHours(24);

    public AlertRuleOptions Rules { get; set; } = new();
    public StormOptions Storm { get; set; } = new();
    public DigestOptions Digest { get; set; } = new();
    public DeliveryOptions Delivery { get; set; } = new();
    public SmtpOptions Smtp { get; set; } = new();

    /// <summary>Chat channels and receivers by name; a route or DefaultTo names one as <c>webhook:&lt;name&gt;</c>.</summary>
    public Dictionary<string, WebhookTarget> Webhooks { get; set; } = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>The settings an Administrator may change on /alerts/settings, by configuration key.</summary>
    public static class Editable
    {
        public const string NonCompliant = "Rules:NonCompliant";
        public const string Unknown = "Rules:Unknown";
        public const string WaiverExpiring = "Rules:WaiverExpiring";
        public const string Recovery = "Rules:Recovery";
        public const string Failover = "Rules:Failover";
        public const string FailoverNotice = "Rules:FailoverNotice";
        public const string RenotifyInterval = "RenotifyInterval";

        /// <summary>Shortest reminder interval the dashboard accepts (zero aside, which means none); the longest is 30 days.</summary>
        public static readonly TimeSpan MinRenotify = TimeSpan.FromMinutes(15);
        public static readonly TimeSpan MaxRenotify = TimeSpan.FromDays(30);
    }

    /// <summary>
    /// These options with the values stored in the dashboard (<see cref="Editable"/> keys, written invariantly) in place
    /// of the configuration's; the configured object is left as it is.
    /// </summary>
    public AlertOptions WithOverrides(IReadOnlyDictionary<string, string> stored)
    {
        if (stored.Count == 0) return this;
        bool Switch(string key, bool configured) => stored.TryGetValue(key, out var value) ? bool.Parse(value) : configured;
        var copy = (AlertOptions)MemberwiseClone();
        // A copy of every rule setting, so one added later keeps its configured value; then the stored switches.
        copy.Rules = Rules with
        {
            NonCompliant = Switch(Editable.NonCompliant, Rules.NonCompliant),
            Unknown = Switch(Editable.Unknown, Rules.Unknown),
            WaiverExpiring = Switch(Editable.WaiverExpiring, Rules.WaiverExpiring),
            Recovery = Switch(Editable.Recovery, Rules.Recovery),
            Failover = Switch(Editable.Failover, Rules.Failover),
            FailoverNotice = Switch(Editable.FailoverNotice, Rules.FailoverNotice),
        };
        if (stored.TryGetValue(Editable.RenotifyInterval, out var renotify))
            copy.RenotifyInterval = TimeSpan.Parse(renotify, System.Globalization.CultureInfo.InvariantCulture);
        return copy;
    }

    /// <summary>Every configuration problem of the webhooks and of the webhook names used as recipients.</summary>
    public IEnumerable<string> WebhookProblems()
    {
        foreach (var (name, target) in Webhooks)
            if (target.Problem(name) is { } problem) yield return problem;
        foreach (var recipient in DefaultTo.Concat(Routes.SelectMany(r => r.To)).Where(WebhookRecipient.Is).Distinct(StringComparer.OrdinalIgnoreCase))
            if (!Webhooks.ContainsKey(WebhookRecipient.NameOf(recipient)))
                yield return $"Alerts routes name {recipient}, but Alerts:Webhooks:{WebhookRecipient.NameOf(recipient)} is not configured.";
    }
}

/// <summary>Per-rule switches and thresholds.</summary>
public sealed record AlertRuleOptions
{
    public bool NonCompliant { get; set; } = true;
    public bool Unknown { get; set; } = true;

    /// <summary>An instance must stay Unknown this long before anyone hears about it (a single failed poll is noise).</summary>
    public TimeSpan UnknownAfter { get; set; } = TimeSpan.FromHours(1);

    public bool WaiverExpiring { get; set; } = true;
    public int WaiverExpiringDays { get; set; } = 7;
    public bool Recovery { get; set; } = true;

    /// <summary>An availability-group failover or a cluster owner move put an instance without required IFI in charge.</summary>
    public bool Failover { get; set; } = true;

    /// <summary>Every other failover or owner move: the roles changed and the new primary's IFI is as policy wants it.</summary>
    public bool FailoverNotice { get; set; } = true;
}

/// <summary>
/// When one recipient list would get more than <see cref="Threshold"/> alert mails within <see cref="Window"/> (a CMDB
/// sync registering hundreds of instances, a patch night, a fleet-wide policy change), the rest of the window's alerts
/// for that list arrive as one grouped mail per evaluation instead: a storm of mail buries the one that matters.
/// </summary>
public sealed class StormOptions
{
    public int Threshold { get; set; } = 10;
    public TimeSpan Window { get; set; } = TimeSpan.FromMinutes(15);
}

/// <summary>An optional daily summary of every open problem, per recipient list.</summary>
public sealed class DigestOptions
{
    public bool Enabled { get; set; }

    /// <summary>The time of day (UTC) after which the day's digest is written.</summary>
    public TimeSpan TimeUtc { get; set; } = TimeSpan.FromHours(7);
}

/// <summary>How the outbox is sent: attempts and the first retry delay, doubled after each failure up to the cap.</summary>
public sealed class DeliveryOptions
{
    public int MaxAttempts { get; set; } = 10;
    public TimeSpan FirstRetryDelay { get; set; } = TimeSpan.FromSeconds(30);
    public TimeSpan MaxRetryDelay { get; set; } = TimeSpan.FromHours(1);
}

/// <summary>Recipients for instances matching every criterion set (environment and owner case-insensitive; the instance has the tag).</summary>
public sealed class AlertRoute
{
    public string? Environment { get; set; }
    public string? Tag { get; set; }
    public string? Owner { get; set; }
    public List<string> To { get; set; } = [];
    /// <summary>When this route matches, the routes after it are not tried (a firewall rule's "stop here").</summary>
    public bool Stop { get; set; }

    public string Describe()
    {
        var criteria = new List<string>();
        if (!string.IsNullOrEmpty(Environment)) criteria.Add($"environment = {Environment}");
        if (!string.IsNullOrEmpty(Tag)) criteria.Add($"tag = {Tag}");
        if (!string.IsNullOrEmpty(Owner)) criteria.Add($"owner = {Owner}");
        var matching = criteria.Count == 0 ? "every instance" : string.Join(" and ", criteria);
        return Stop ? matching + "; later routes are not tried" : matching;
    }
}

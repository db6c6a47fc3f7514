using System.Net;

namespace IfiDashboard.Server.Alerts.Webhooks;

/// <summary>What a webhook receiver expects: the payload shape and, for <see cref="Json"/>, a signature.</summary>
public enum WebhookKind
{
    /// <summary>A Microsoft Teams Workflows webhook ("Post to a channel when a webhook request is received"): an Adaptive Card.</summary>
    Teams,

    /// <summary>A Slack incoming webhook: text with a link.</summary>
    Slack,

    /// <summary>Any receiver of ours: the alert as JSON, signed with HMAC-SHA256 over the timestamp and the body.</summary>
    Json,
}

/// <summary>
/// One chat channel or receiver (<c>Alerts:Webhooks:&lt;name&gt;</c>), named in routes as <c>webhook:&lt;name&gt;</c>
/// beside mail addresses. The URL of a Teams or Slack webhook is itself the credential: it lives in configuration only,
/// never in the store, a log line or an error.
/// </summary>
public sealed class WebhookTarget
{
    public WebhookKind Kind { get; set; } = WebhookKind.Json;
    public string? Url { get; set; }

    /// <summary>The HMAC key of a <see cref="WebhookKind.Json"/> webhook, shared with the receiver (at least 32 characters).</summary>
    public string? Secret { get; set; }

    public const int MinSecretLength = 32;

    /// <summary>What is wrong with this target, or null. Plain HTTP only to loopback: a webhook is never sent unencrypted.</summary>
    public string? Problem(string name)
    {
        if (UrlProblem(Url) is { } problem)
            return $"Alerts:Webhooks:{name}:Url {problem}.";
        if (Kind == WebhookKind.Json && (Secret?.Length ?? 0) < MinSecretLength)
            return $"Alerts:Webhooks:{name}:Secret must be at least {MinSecretLength} characters: a Json webhook is signed with it.";
        return null;
    }

    /// <summary>
    /// The rule every webhook address follows (alert webhooks and change webhooks alike), as the end of a sentence
    /// about it, or null: absolute, and https but for a receiver on loopback.
    /// </summary>
    public static string? UrlProblem(string? url)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme is not ("https" or "http"))
            return "must be an absolute https address";
        if (uri.Scheme == "http" && !(uri.IsLoopback || IPAddress.TryParse(uri.Host, out var ip) && IPAddress.IsLoopback(ip)))
            return "must use https (plain http is accepted for loopback receivers only)";
        return null;
    }
}

using System.Text.Json;
using System.Text.Json.Nodes;
using IfiDashboard.Store.Alerts;

namespace IfiDashboard.Server.Alerts.Webhooks;

/// <summary>The body each kind of receiver expects for one outbox row.</summary>
public static class WebhookPayloads
{
    /// <summary>Slack rejects a section text longer than 3,000 characters; Teams cards stay readable well below that.</summary>
    const int MaxText = 2_900;

    public static string For(WebhookKind kind, OutboxEntry entry, string? link) => (kind switch
    {
        WebhookKind.Teams => Teams(entry, link),
        WebhookKind.Slack => Slack(entry, link),
        _ => Json(entry, link),
    }).ToJsonString();

    static string Shortened(string text) => text.Length <= MaxText ? text : text[..MaxText] + "…";

    /// <summary>
    /// The message a Teams Workflows webhook posts: one attachment holding an Adaptive Card (schema 1.4, which Teams
    /// renders), the subject as its title, the text, and a button to the instance page.
    /// </summary>
    static JsonObject Teams(OutboxEntry entry, string? link)
    {
        var card = new JsonObject
        {
            ["$schema"] = "http://adaptivecards.io/schemas/adaptive-card.json",
            ["type"] = "AdaptiveCard",
            ["version"] = "1.4",
            ["body"] = new JsonArray(
                new JsonObject { ["type"] = "TextBlock", ["text"] = entry.Subject, ["weight"] = "Bolder", ["size"] = "Medium", ["wrap"] = true },
                new JsonObject { ["type"] = "TextBlock", ["text"] = Shortened(entry.TextBody), ["wrap"] = true }),
        };
        if (link is not null)
            card["actions"] = new JsonArray(new JsonObject { ["type"] = "Action.OpenUrl", ["title"] = "Open in IfiDashboard", ["url"] = link });
        return new JsonObject
        {
            ["type"] = "message",
            ["attachments"] = new JsonArray(new JsonObject
            {
                ["contentType"] = "application/vnd.microsoft.card.adaptive",
                ["content"] = card,
            }),
        };
    }

    /// <summary>
    /// A Slack incoming-webhook message: <c>text</c> (the notification line) and one section block. Slack reads
    /// <c>&amp;</c>, <c>&lt;</c> and <c>&gt;</c> as markup, so they are escaped: an instance name cannot forge a link.
    /// </summary>
    static JsonObject Slack(OutboxEntry entry, string? link)
    {
        var body = $"*{SlackEscape(entry.Subject)}*\n{SlackEscape(Shortened(entry.TextBody))}";
        if (link is not null) body += $"\n<{link}|Open in IfiDashboard>";
        return new JsonObject
        {
            ["text"] = entry.Subject,
            ["blocks"] = new JsonArray(new JsonObject
            {
                ["type"] = "section",
                ["text"] = new JsonObject { ["type"] = "mrkdwn", ["text"] = Shortened(body) },
            }),
        };
    }

    static string SlackEscape(string text) => text.Replace("&", "&amp;", StringComparison.Ordinal)
        .Replace("<", "&lt;", StringComparison.Ordinal).Replace(">", "&gt;", StringComparison.Ordinal);

    /// <summary>The alert as data: what kind, which instance and rule, the texts, and the link.</summary>
    static JsonObject Json(OutboxEntry entry, string? link) => new()
    {
        ["id"] = entry.MessageId,
        ["kind"] = entry.Kind.ToString(),
        ["instanceId"] = entry.InstanceId,
        ["displayName"] = entry.InstanceName,
        // The name this field had before docs/api.md's "one meaning per name": kept, same value, until v2.
        ["instanceName"] = entry.InstanceName,
        ["rule"] = entry.Rule?.ToString(),
        ["subject"] = entry.Subject,
        ["text"] = entry.TextBody,
        ["link"] = link,
        ["createdAt"] = JsonValue.Create(entry.CreatedAt),
    };

    internal static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);
}

namespace IfiDashboard.Store.Alerts;

/// <summary>How a webhook is named among an alert's recipients.</summary>
public static class WebhookRecipient
{
    public const string Prefix = "webhook:";

    public static bool Is(string recipient) => recipient.StartsWith(Prefix, StringComparison.OrdinalIgnoreCase);

    public static string NameOf(string recipient) => recipient[Prefix.Length..].Trim();
}

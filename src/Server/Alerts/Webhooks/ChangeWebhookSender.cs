using System.Globalization;
using System.Security.Cryptography;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Changes;
using Microsoft.AspNetCore.DataProtection;

namespace IfiDashboard.Server.Alerts.Webhooks;

/// <summary>How an outbox row names the subscription it is for: <c>change-webhook:&lt;id&gt;</c>.</summary>
public static class ChangeWebhookRecipient
{
    public const string Prefix = "change-webhook:";

    public static string For(long id) => Prefix + id.ToString(CultureInfo.InvariantCulture);

    public static long? IdOf(IReadOnlyList<string> recipients) =>
        recipients is [var only] && only.StartsWith(Prefix, StringComparison.Ordinal)
        && long.TryParse(only.AsSpan(Prefix.Length), NumberStyles.None, CultureInfo.InvariantCulture, out var id)
            ? id : null;
}

/// <summary>
/// Keeps a subscription's URL (which may hold a token) and secret as data-protection ciphertext in the store, under the
/// keys servers sharing a store already share (<c>DataProtection:KeysDirectory</c>).
/// </summary>
public sealed class ChangeWebhookSecrets(IDataProtectionProvider provider)
{
    readonly IDataProtector _protector = provider.CreateProtector("IfiDashboard.ChangeWebhooks.v1");

    /// <summary>A new HMAC secret: 32 random bytes, 43 characters of base64url.</summary>
    public static string NewSecret() => Convert.ToBase64String(RandomNumberGenerator.GetBytes(32))
        .TrimEnd('=').Replace('+', '-').Replace('/', '_');

    public string Protect(string text) => _protector.Protect(text);

    /// <exception cref="CryptographicException">The keys that protected it are gone.</exception>
    public string Unprotect(string ciphertext) => _protector.Unprotect(ciphertext);
}

/// <summary>Posts a change webhook's outbox row to its subscription's URL, signed with its secret as alert webhooks are.</summary>
public sealed class ChangeWebhookSender(ChangeWebhookStore webhooks, ChangeWebhookSecrets secrets, WebhookSender sender)
{
    static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    public async Task SendAsync(long subscriptionId, OutboxEntry entry, CancellationToken ct)
    {
        if (await webhooks.GetAsync(subscriptionId, ct) is not { } subscription)
            throw new WebhookDeliveryException($"Change webhook {subscriptionId} was deleted.", permanent: true);
        string url, secret;
        try
        {
            url = secrets.Unprotect(subscription.UrlProtected);
            secret = secrets.Unprotect(subscription.SecretProtected);
        }
        catch (CryptographicException)
        {
            throw new WebhookDeliveryException($"Change webhook '{subscription.Name}' cannot be read with this server's data-protection keys " +
                "(DataProtection:KeysDirectory changed, or not shared between servers): delete it and create it again.", permanent: true);
        }
        await sender.PostAsync(subscription.Name, url, secret, entry.MessageId, entry.TextBody,
            $"change webhook {subscription.Id} on /integrations", Timeout, ct);
    }
}

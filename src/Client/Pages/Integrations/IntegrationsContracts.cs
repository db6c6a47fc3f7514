namespace IfiDashboard.Client.Pages.Integrations;

/// <summary>
/// What the integrations page reads and changes: change webhook subscriptions (docs/api.md, "Change webhooks"). The
/// server implements it with the API's own rules, so a subscription made here is one made through the API.
/// </summary>
public interface IChangeWebhooksEditor
{
    /// <summary>The events a subscription can choose, by the names the API and the payload use.</summary>
    IReadOnlyList<string> Events { get; }

    Task<IReadOnlyList<ChangeWebhookItem>> ListAsync(CancellationToken ct);

    /// <summary>Errors by field (<c>name</c>, <c>url</c>, <c>events</c>), or the new subscription with its secret.</summary>
    Task<ChangeWebhookCreation> CreateAsync(string? name, string? url, IReadOnlyList<string> events, CancellationToken ct);

    /// <returns>False when no subscription with that id is active.</returns>
    Task<bool> DeleteAsync(long id, CancellationToken ct);
}

/// <summary>A subscription as shown: its receiver by origin only (the URL may hold a token), never its secret.</summary>
public sealed record ChangeWebhookItem(long Id, string Name, string UrlOrigin, IReadOnlyList<string> Events, DateTimeOffset CreatedAt, string CreatedBy);

/// <param name="Secret">Shown once, on the page that answers the creation; never stored in clear or shown again.</param>
public sealed record ChangeWebhookCreation(IReadOnlyDictionary<string, string> Errors, ChangeWebhookItem? Created, string? Secret);

/// <summary>The create form as posted; the events are its checked <c>event</c> boxes, read from the request.</summary>
public sealed class ChangeWebhookForm
{
    public const string EventField = "event";

    public string? Name { get; set; }
    public string? Url { get; set; }
}

/// <summary>The delete confirmation's form: which subscription.</summary>
public sealed class ChangeWebhookDeletion
{
    public string? Id { get; set; }
}

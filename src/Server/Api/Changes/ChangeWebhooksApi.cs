using IfiDashboard.Client.Pages.Integrations;
using IfiDashboard.Server.Alerts.Webhooks;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Changes;
using IfiDashboard.Shared.Validation;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Api.Changes;

/// <summary>
/// <c>/api/v1/change-webhooks</c> (scope <c>admin</c>): subscriptions that push the changes feed's events to a
/// receiver, signed as alert webhooks are. The secret is in the creation's answer only.
/// </summary>
public static class ChangeWebhooksApi
{
    public static RouteGroupBuilder MapChangeWebhooksApi(this RouteGroupBuilder api)
    {
        var group = api.MapGroup("/change-webhooks").WithTags("Changes");

        group.MapPost("", CreateAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("CreateChangeWebhook")
            .WithSummary("Subscribe a receiver to changes feed events; the signing secret is in this response only.")
            .Accepts<CreateChangeWebhookRequest>("application/json")
            .Produces<CreatedChangeWebhookResponse>(StatusCodes.Status201Created)
            .ProducesProblem(StatusCodes.Status409Conflict)
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        group.MapGet("", ListAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("ListChangeWebhooks")
            .WithSummary("The change webhook subscriptions (never their URL's path or secret).")
            .Produces<List<ChangeWebhookResponse>>()
            .ProducesAuthProblems();

        group.MapGet("/{id:long}", GetAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("GetChangeWebhook")
            .WithSummary("One change webhook subscription.")
            .Produces<ChangeWebhookResponse>()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapDelete("/{id:long}", DeleteAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("DeleteChangeWebhook")
            .WithSummary("End a subscription: nothing more is sent to it.")
            .Produces(StatusCodes.Status204NoContent)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        return group;
    }

    static async Task<IResult> CreateAsync(HttpRequest request, ChangeWebhookSubscriptions subscriptions, IOptionsMonitor<ApiOptions> options,
        CancellationToken ct)
    {
        var body = await JsonBody.ReadAsync<CreateChangeWebhookRequest>(request, options.CurrentValue.MaxBodyBytes, ct);
        if (body.Problem is not null)
            return body.Problem;
        var result = await subscriptions.CreateAsync(body.Value!.Name, body.Value.Url, body.Value.Events, ct);
        if (result.Errors is { Count: > 0 } errors)
            return ApiProblems.Validation(errors.ToDictionary(e => e.Key, e => new[] { e.Value }));
        if (result.Created is not { } created)
            return TypedResults.Problem($"A change webhook named '{body.Value.Name}' exists already.", statusCode: StatusCodes.Status409Conflict,
                title: "Name taken");
        return TypedResults.Created($"/api/v1/change-webhooks/{created.Webhook.Id}",
            new CreatedChangeWebhookResponse(created.Webhook.Id, created.Webhook.Name, created.Webhook.UrlOrigin, Events(created.Webhook),
                created.Webhook.CreatedAt, created.Webhook.CreatedBy, created.Secret));
    }

    static async Task<IResult> ListAsync(ChangeWebhookStore store, CancellationToken ct) =>
        TypedResults.Ok((await store.ListAsync(ct)).Select(Response).ToList());

    static async Task<IResult> GetAsync(long id, ChangeWebhookStore store, CancellationToken ct) =>
        await store.GetAsync(id, ct) is { } webhook ? TypedResults.Ok(Response(webhook)) : NotFound(id);

    static async Task<IResult> DeleteAsync(long id, ChangeWebhookStore store, CancellationToken ct) =>
        await store.DeleteAsync(id, ct) ? TypedResults.NoContent() : NotFound(id);

    static ChangeWebhookResponse Response(ChangeWebhook webhook) =>
        new(webhook.Id, webhook.Name, webhook.UrlOrigin, Events(webhook), webhook.CreatedAt, webhook.CreatedBy);

    static IReadOnlyList<ChangeEvent> Events(ChangeWebhook webhook) =>
        ChangeEvents.All.Where(e => webhook.Events.Contains(ChangeEvents.NameOf(e), StringComparer.Ordinal)).ToList();

    static IResult NotFound(long id) =>
        TypedResults.Problem($"No change webhook {id} is active.", statusCode: StatusCodes.Status404NotFound, title: "Change webhook not found");
}

/// <summary>
/// Creating a subscription, for the API and the page alike: the name, the URL under the alert webhooks' rule
/// (<see cref="WebhookTarget.UrlProblem"/>), the events, and a new secret; URL and secret stored only protected.
/// </summary>
public sealed class ChangeWebhookSubscriptions(ChangeWebhookStore store, ChangeWebhookSecrets secrets) : IChangeWebhooksEditor
{
    public IReadOnlyList<string> Events { get; } = ChangeEvents.All.Select(ChangeEvents.NameOf).ToList();

    public async Task<IReadOnlyList<ChangeWebhookItem>> ListAsync(CancellationToken ct) =>
        (await store.ListAsync(ct)).Select(Item).ToList();

    /// <summary>The page's creation: event names as the API takes them, refused by the same rules.</summary>
    public async Task<ChangeWebhookCreation> CreateAsync(string? name, string? url, IReadOnlyList<string> events, CancellationToken ct)
    {
        var unknown = events.Where(e => !Events.Contains(e, StringComparer.Ordinal)).ToList();
        if (unknown.Count > 0)
            return new ChangeWebhookCreation(new Dictionary<string, string> { ["events"] = $"Unknown events: {string.Join(", ", unknown)}." }, null, null);
        var result = await CreateAsync(name, url, ChangeEvents.All.Where(e => events.Contains(ChangeEvents.NameOf(e), StringComparer.Ordinal)).ToList(), ct);
        return new ChangeWebhookCreation(result.Errors ?? new Dictionary<string, string>(), result.Created is { } c ? Item(c.Webhook) : null, result.Created?.Secret);
    }

    public Task<bool> DeleteAsync(long id, CancellationToken ct) => store.DeleteAsync(id, ct);

    static ChangeWebhookItem Item(ChangeWebhook webhook) =>
        new(webhook.Id, webhook.Name, webhook.UrlOrigin, webhook.Events, webhook.CreatedAt, webhook.CreatedBy);

    public sealed record Created(ChangeWebhook Webhook, string Secret);

    /// <summary>Field errors (by the API's field names), or the subscription with its secret; neither when the name is taken.</summary>
    public sealed record Result(IReadOnlyDictionary<string, string>? Errors, Created? Created);

    public async Task<Result> CreateAsync(string? name, string? url, IReadOnlyList<ChangeEvent>? events, CancellationToken ct)
    {
        var errors = new Dictionary<string, string>();
        // Named as API keys are: pages, errors and the delivery log name the subscription by it.
        if (string.IsNullOrEmpty(name) || !TextRules.DisplayName().IsMatch(name))
            errors["name"] = TextRules.DisplayNameRule;
        if (WebhookTarget.UrlProblem(url) is { } urlProblem)
            errors["url"] = $"The URL {urlProblem}.";
        var chosen = (events is null || events.Count == 0 ? ChangeEvents.All : events).Distinct().ToList();
        if (errors.Count > 0)
            return new Result(errors, null);

        var uri = new Uri(url!);
        var secret = ChangeWebhookSecrets.NewSecret();
        var id = await store.CreateAsync(name!, uri.GetLeftPart(UriPartial.Authority), secrets.Protect(url!), secrets.Protect(secret),
            chosen.Select(ChangeEvents.NameOf).ToList(), ct);
        return id is { } created && await store.GetAsync(created, ct) is { } webhook
            ? new Result(null, new Created(webhook, secret))
            : new Result(null, null);
    }
}

/// <summary>A subscription to create: a name, the receiver's URL (https, or http to loopback), and the events (all when omitted).</summary>
public sealed record CreateChangeWebhookRequest(string? Name, string? Url, IReadOnlyList<ChangeEvent>? Events);

/// <summary>A subscription: its receiver is shown by origin only (scheme, host, port), as the URL may hold a token.</summary>
public sealed record ChangeWebhookResponse(long Id, string Name, string UrlOrigin, IReadOnlyList<ChangeEvent> Events,
    DateTimeOffset CreatedAt, string CreatedBy);

/// <summary>The new subscription and its signing secret: shown here once, never again.</summary>
public sealed record CreatedChangeWebhookResponse(long Id, string Name, string UrlOrigin, IReadOnlyList<ChangeEvent> Events,
    DateTimeOffset CreatedAt, string CreatedBy, string Secret);

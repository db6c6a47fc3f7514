using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.ApiKeys;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Api.Keys;

/// <summary><c>/api/v1/api-keys</c>: create, list and revoke keys; every endpoint needs the <c>admin</c> scope.</summary>
public static class ApiKeysApi
{
    public static RouteGroupBuilder MapApiKeysApi(this RouteGroupBuilder api)
    {
        var group = api.MapGroup("/api-keys").WithTags("API keys");

        group.MapPost("", CreateAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("CreateApiKey")
            .WithSummary("Create an API key with scopes; the key is in this response only.")
            .Accepts<CreateApiKeyRequest>("application/json")
            .Produces<CreatedApiKeyResponse>(StatusCodes.Status201Created)
            .ProducesBodyProblems()
            .ProducesAuthProblems();

        group.MapGet("", ListAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("ListApiKeys")
            .WithSummary("List API keys (prefix, name, scopes, times), revoked ones included.")
            .Produces<List<ApiKeyResponse>>()
            .ProducesAuthProblems();

        group.MapGet("/{prefix}", GetAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("GetApiKey")
            .WithSummary("Get one API key by its prefix.")
            .Produces<ApiKeyResponse>()
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        group.MapDelete("/{prefix}", RevokeAsync)
            .RequireScope(ApiScopes.Admin)
            .WithName("RevokeApiKey")
            .WithSummary("Revoke an API key by its prefix; it is refused from then on.")
            .Produces(StatusCodes.Status204NoContent)
            .ProducesProblem(StatusCodes.Status404NotFound)
            .ProducesAuthProblems();

        return group;
    }

    static async Task<IResult> CreateAsync(HttpRequest request, ApiKeyIssuer issuer, IOptionsMonitor<ApiOptions> options,
        CancellationToken cancellationToken)
    {
        var body = await JsonBody.ReadAsync<CreateApiKeyRequest>(request, options.CurrentValue.MaxBodyBytes, cancellationToken);
        if (body.Problem is not null)
            return body.Problem;
        var errors = ApiKeyIssuer.Validate(body.Value!.Name, body.Value.Scopes, body.Value.Collector);
        if (errors.Count > 0)
            return ApiProblems.Validation(errors);

        var (record, key) = await issuer.CreateAsync(body.Value.Name!, body.Value.Scopes!.Select(s => s!).ToList(),
            body.Value.Collector, cancellationToken);
        return TypedResults.Created($"/api/v1/api-keys/{record.Prefix}",
            new CreatedApiKeyResponse(record.Prefix, record.Name, record.Scopes, record.CreatedAt, record.CollectorName, key));
    }

    static async Task<IResult> ListAsync(ApiKeyStore keys, CancellationToken cancellationToken) =>
        TypedResults.Ok((await keys.ListAsync(cancellationToken)).Select(ApiKeyResponse.From).ToList());

    static async Task<IResult> GetAsync(string prefix, ApiKeyStore keys, CancellationToken cancellationToken) =>
        await keys.FindByPrefixAsync(prefix, cancellationToken) is { } record
            ? TypedResults.Ok(ApiKeyResponse.From(record))
            : NotFound(prefix);

    static async Task<IResult> RevokeAsync(string prefix, ApiKeyStore keys, CancellationToken cancellationToken) =>
        await keys.RevokeAsync(prefix, cancellationToken) is null ? NotFound(prefix) : TypedResults.NoContent();

    static IResult NotFound(string prefix) => TypedResults.Problem(
        $"No API key has the prefix '{prefix}'.", statusCode: StatusCodes.Status404NotFound, title: "API key not found");
}

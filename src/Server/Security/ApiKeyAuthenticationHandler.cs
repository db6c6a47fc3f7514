using System.Security.Claims;
using System.Text.Encodings.Web;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Audit;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Security;

/// <summary>
/// The API's authentication scheme: a key in <c>X-Api-Key</c> (or <c>Authorization: Bearer</c>). A missing or
/// unknown key is answered 401, a valid key without the endpoint's scope 403, both as problem documents.
/// </summary>
public sealed class ApiKeyAuthenticationHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    ApiKeyAuthenticator authenticator)
    : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string SchemeName = "ApiKey";
    public const string HeaderName = "X-Api-Key";

    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        // Only endpoints that declare a scope speak this scheme; the collector API keeps its own key filter.
        if (Context.GetEndpoint()?.Metadata.GetMetadata<RequiredScope>() is null)
            return AuthenticateResult.NoResult();
        if (PresentedKey() is not { } presented)
            return AuthenticateResult.NoResult();
        var identity = await authenticator.AuthenticateAsync(presented, Context.RequestAborted);
        if (identity is null)
            return AuthenticateResult.Fail("The API key is not valid or has been revoked.");

        List<Claim> claims =
        [
            new(ClaimTypes.NameIdentifier, identity.KeyId),
            new(ClaimTypes.Name, identity.Name),
            .. identity.Scopes.Select(s => new Claim(ApiScopes.ClaimType, s)),
        ];
        var principal = new ClaimsPrincipal(new ClaimsIdentity(claims, SchemeName));
        return AuthenticateResult.Success(new AuthenticationTicket(principal, SchemeName));
    }

    protected override async Task HandleChallengeAsync(AuthenticationProperties properties)
    {
        var result = await HandleAuthenticateOnceSafeAsync();
        if (result.Failure is not null)
            // Anyone can send a wrong key: counted per address and hour, never an audit entry each.
            await Context.RequestServices.GetRequiredService<AuditLog>().CountRefusalAsync(AuditActions.ApiKeyRefused,
                new AuditActor(AuditActors.Anonymous, Context.Connection.RemoteIpAddress?.ToString()), "key not valid or revoked",
                Context.RequestAborted);
        Response.Headers.WWWAuthenticate = $"{SchemeName} header=\"{HeaderName}\"";
        var detail = result.Failure is null
            ? $"Send an API key in the {HeaderName} header (or as Authorization: Bearer)."
            : result.Failure.Message;
        await ApiProblems.WriteAsync(Context, StatusCodes.Status401Unauthorized,
            result.Failure is null ? "API key required" : "API key rejected", detail);
    }

    protected override Task HandleForbiddenAsync(AuthenticationProperties properties)
    {
        var scope = Context.GetEndpoint()?.Metadata.GetMetadata<RequiredScope>()?.Scope ?? "?";
        var keyId = Context.User.FindFirstValue(ClaimTypes.NameIdentifier) ?? "?";
        return ApiProblems.WriteAsync(Context, StatusCodes.Status403Forbidden, "Scope missing",
            $"The API key '{keyId}' does not have the scope '{scope}' this endpoint needs.");
    }

    /// <summary>Whether the request presents a key at all (so it is the key's, not a signed-in user's).</summary>
    public static bool IsPresented(HttpRequest request) =>
        request.Headers.ContainsKey(HeaderName)
        || request.Headers.Authorization.ToString().StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase);

    string? PresentedKey()
    {
        var header = Request.Headers[HeaderName];
        if (header.Count > 0)
            return header.Count == 1 ? header[0]?.Trim() ?? "" : "";
        var authorization = Request.Headers.Authorization.ToString();
        const string bearer = "Bearer ";
        return authorization.StartsWith(bearer, StringComparison.OrdinalIgnoreCase) ? authorization[bearer.Length..].Trim() : null;
    }
}

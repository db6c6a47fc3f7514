using System.Security.Claims;
using IfiDashboard.Shared.Security;
using IfiDashboard.Store.Audit;

namespace IfiDashboard.Server.Security;

/// <summary>
/// The actor of the current request: the signed-in person (identity and display name), or the API key's name and
/// prefix for API calls, with the request's remote address; "anonymous" for a request nobody signed in to, and
/// "system" outside any request (demo seeding, background work), unless the process says who it acts for
/// (<paramref name="outsideRequests"/>: the <c>api-key</c> command names the operating-system user who ran it).
/// </summary>
public sealed class AuditActors(IHttpContextAccessor? requests = null, AuditActor? outsideRequests = null) : IAuditActors
{
    public const string Anonymous = "anonymous";

    public AuditActor Current()
    {
        if (requests?.HttpContext is not { } context)
            return outsideRequests ?? AuditActor.System;
        return Of(context.User, ForwardedClient.AddressOf(context));
    }

    /// <summary>The actor <paramref name="user"/> is, from <paramref name="remoteAddress"/>.</summary>
    public static AuditActor Of(ClaimsPrincipal user, string? remoteAddress)
    {
        if (user.Identity is not { IsAuthenticated: true, Name: { Length: > 0 } name })
            return new AuditActor(Anonymous, remoteAddress);
        // The API key scheme's identity: its name is the key's, its NameIdentifier the key's public prefix.
        if (user.Identity.AuthenticationType == ApiKeyAuthenticationHandler.SchemeName
            && user.FindFirstValue(ClaimTypes.NameIdentifier) is { } keyPrefix)
            return new AuditActor($"{name} (API key {keyPrefix})", remoteAddress, ChangeAuthor.Identity(keyPrefix, "api-key"));
        var person = ChangeAuthor.PersonOf(user);
        return new AuditActor(person.Name, remoteAddress, person.Identity);
    }
}

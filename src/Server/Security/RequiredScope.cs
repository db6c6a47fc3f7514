namespace IfiDashboard.Server.Security;

/// <summary>
/// Endpoint metadata naming the scope an endpoint needs. The API key scheme only authenticates endpoints carrying
/// it, and names the scope when it forbids a key.
/// </summary>
public sealed record RequiredScope(string Scope);

public static class RequiredScopeExtensions
{
    public static TBuilder RequireScope<TBuilder>(this TBuilder builder, string scope) where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new RequiredScope(scope)).RequireAuthorization(ApiScopes.PolicyName(scope));
}

namespace IfiDashboard.Shared.Security;

/// <summary>
/// What the dashboard's layout needs to know of the signed-in person besides the name: how they signed in (a demo
/// banner, a sign-out button only where signing out means something) and where to sign in and out.
/// </summary>
public static class SignInClaims
{
    /// <summary>The claim every dashboard identity carries, naming how it signed in.</summary>
    public const string Method = "ifi_signin";

    /// <summary>
    /// The person's identity, <c>subject@issuer</c>: for OpenID Connect the ID token's <c>oid</c> (Entra ID) or else
    /// <c>sub</c> at its issuer, for the proxy the user name in lower case at <c>proxy</c>. Names change and are shared;
    /// this does not (docs/security.md#identity).
    /// </summary>
    public const string Identity = "ifi_identity";

    public const string Demo = "demo";
    public const string OpenIdConnect = "oidc";
    public const string TrustedProxy = "proxy";

    public const string SignInPath = "/signin";
    public const string SignOutPath = "/signout";
}

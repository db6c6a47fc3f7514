namespace IfiDashboard.Shared.Security;

/// <summary>
/// What the dashboard's layout needs to know of the signed-in person besides the name: how they signed in (a demo
/// banner, a sign-out button only where signing out means something) and where to sign in and out.
/// </summary>
public static class SignInClaims
{
    /// <summary>The claim every dashboard identity carries, naming how it signed in.</summary>
    public const string Method = "ifi_signin";

    public const string Demo = "demo";
    public const string OpenIdConnect = "oidc";
    public const string TrustedProxy = "proxy";

    public const string SignInPath = "/signin";
    public const string SignOutPath = "/signout";
}

using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Components;

/// <summary>
/// The theme a person chose with the toggle, kept in a cookie so the server renders it on the first byte: no flash
/// of the other theme on each page load. No cookie means the browser's prefers-color-scheme decides.
/// </summary>
public static class Theme
{
    public const string CookieName = "ifi-theme";

    public static string? FromCookie(HttpContext? context) =>
        context?.Request.Cookies[CookieName] is "dark" or "light" ? context.Request.Cookies[CookieName] : null;
}

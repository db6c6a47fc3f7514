using System.Globalization;

namespace IfiDashboard.Client.Components;

/// <summary>
/// A whole number a page reads from its address or from a hidden form field: digits only, read the same in every
/// culture. Anything else (a mangled or hand-edited link, a number too large) reads as absent, so that the page opens
/// as it would without it: a typed property on <c>SupplyParameterFromQuery</c> made such a link a server error.
/// </summary>
public static class QueryNumber
{
    /// <summary>A store id: positive.</summary>
    public static long? Id(string? text) =>
        long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var id) && id > 0 ? id : null;

    /// <summary>A count, a page or a version: zero or more.</summary>
    public static int? Count(string? text) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var count) ? count : null;
}

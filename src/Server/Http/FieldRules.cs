using System.Text.RegularExpressions;

namespace IfiDashboard.Server.Http;

/// <summary>
/// What the API accepts in the fields only it has. An instance's own fields follow
/// <see cref="IfiDashboard.Shared.Inventory.InstanceRules"/>, as on every other path.
/// </summary>
internal static partial class FieldRules
{
    /// <summary>External keys appear in URLs: letters, digits and <c>._:-</c>.</summary>
    [GeneratedRegex(@"^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}\z")]
    public static partial Regex ExternalKey();
}

using AngleSharp.Dom;

namespace IfiDashboard.Server.Tests.Functional;

/// <summary>
/// The fleet grid in a page's HTML. QuickGrid gives its rows nothing but a class, so the instance's name link carries
/// the marker (<c>data-instance</c>, <c>data-status</c>) and each cell the column's class.
/// </summary>
internal static class FleetGrid
{
    public static IElement? Row(IParentNode page, string instance) =>
        page.QuerySelector($"table[data-grid=instances] a[data-instance='{instance}']")?.Closest("tr");

    /// <param name="column">The column's class: status, environment, owner, tags, version, ifi, policy, time-lost, restore, last-poll.</param>
    public static IElement? Cell(IParentNode page, string instance, string column) => Row(page, instance)?.QuerySelector($"td.{column}");

    public static IReadOnlyList<string> Names(IParentNode page) =>
        page.QuerySelectorAll("table[data-grid=instances] a[data-instance]").Select(a => a.GetAttribute("data-instance")!).ToList();
}

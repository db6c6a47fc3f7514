using System.Text;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The grid's filters, sort and page, as they travel in the query string: every view of the grid is a link, so it
/// works without script, can be bookmarked and pasted into a ticket.
/// </summary>
public sealed record InstanceQuery
{
    public const int DefaultPageSize = 50;

    /// <summary>The query-string names, shared by the page, its links and the CSV export.</summary>
    public const string StatusKey = "status", EnvironmentKey = "env", TagKey = "tag", VersionKey = "version", OwnerKey = "owner",
        TextKey = "q", SortKey = "sort", DirectionKey = "dir", PageKey = "page", PageSizeKey = "size";
    public static readonly int[] PageSizes = [25, 50, 100, 250];

    /// <summary>A <see cref="IfiDashboard.Shared.Compliance.Status.ComplianceStatus"/> name, or "stale".</summary>
    public string? Status { get; init; }
    public string? Environment { get; init; }
    public string? Tag { get; init; }
    public int? Version { get; init; }
    public string? Owner { get; init; }
    public string? Text { get; init; }
    public GridColumn Sort { get; init; } = GridColumn.Name;
    public bool Descending { get; init; }
    public int Page { get; init; } = 1;
    public int PageSize { get; init; } = DefaultPageSize;

    public bool HasFilters =>
        Status is not null || Environment is not null || Tag is not null || Version is not null || Owner is not null || Text is not null;

    /// <summary>Builds a query from raw query-string values, ignoring what does not parse instead of failing the page.</summary>
    public static InstanceQuery Parse(string? status, string? environment, string? tag, int? version, string? owner,
        string? text, string? sort, string? direction, int? page, int? pageSize) => new()
    {
        Status = Blank(status),
        Environment = Blank(environment),
        Tag = Blank(tag),
        Version = version,
        Owner = Blank(owner),
        Text = Blank(text),
        Sort = Enum.TryParse<GridColumn>(sort, ignoreCase: true, out var column) && Enum.IsDefined(column) ? column : GridColumn.Name,
        Descending = string.Equals(direction, "desc", StringComparison.OrdinalIgnoreCase),
        Page = Math.Max(1, page ?? 1),
        PageSize = pageSize is { } size && PageSizes.Contains(size) ? size : DefaultPageSize,
    };

    /// <summary>Sorting by another column starts on page 1; the same column again reverses the order.</summary>
    public InstanceQuery SortedBy(GridColumn column) => this with
    {
        Sort = column,
        Descending = column == Sort ? !Descending : InstanceGrid.DescendingFirst(column),
        Page = 1,
    };

    public string ToUrl(string path = "instances")
    {
        var query = new StringBuilder();
        void Add(string name, string? value)
        {
            if (string.IsNullOrEmpty(value)) return;
            query.Append(query.Length == 0 ? '?' : '&').Append(name).Append('=').Append(Uri.EscapeDataString(value));
        }
        Add(StatusKey, Status);
        Add(EnvironmentKey, Environment);
        Add(TagKey, Tag);
        Add(VersionKey, Version?.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Add(OwnerKey, Owner);
        Add(TextKey, Text);
        if (Sort != GridColumn.Name || Descending) Add(SortKey, Sort.ToString().ToLowerInvariant());
        if (Descending) Add(DirectionKey, "desc");
        if (Page > 1) Add(PageKey, Page.ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (PageSize != DefaultPageSize) Add(PageSizeKey, PageSize.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return path + query;
    }

    static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();
}

public enum GridColumn
{
    Name,
    Status,
    Environment,
    Owner,
    Version,
    Ifi,
    TimeLost,
    Restore,
    LastPoll,
}

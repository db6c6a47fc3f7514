using System.Globalization;
using System.Text;
using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Policy;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// The grid's view: filters, sort, page and columns, as they travel in the query string. It is the one truth the page,
/// its address, the CSV export and the remediation pack read, so every view is a link that can be bookmarked and
/// pasted into a ticket.
/// </summary>
public sealed record InstanceQuery
{
    public const int DefaultPageSize = 50;
    /// <summary>The grid's address, relative to the app's base.</summary>
    public const string GridPath = "instances";

    /// <summary>The query-string names, shared by the page, its links, the CSV export and the remediation pack.</summary>
    public const string StatusKey = "status", EnvironmentKey = "env", TagKey = "tag", VersionKey = "version", OwnerKey = "owner",
        PolicyKey = "policy", TextKey = "q", SortKey = "sort", DirectionKey = "dir", PageKey = "page", PageSizeKey = "size",
        ColumnsKey = "cols";
    public static readonly int[] PageSizes = [25, 50, 100, 250];

    /// <summary>A <see cref="IfiDashboard.Compliance.Status.ComplianceStatus"/> name, or "stale".</summary>
    public string? Status { get; init; }
    public string? Environment { get; init; }
    public string? Tag { get; init; }
    public int? Version { get; init; }
    public string? Owner { get; init; }
    /// <summary>What the policy wants of the instance's IFI (its desired state).</summary>
    public DesiredState? Policy { get; init; }
    public string? Text { get; init; }
    public GridColumn Sort { get; init; } = GridColumn.Name;
    public bool Descending { get; init; }
    public int Page { get; init; } = 1;
    public int PageSize { get; init; } = DefaultPageSize;
    public GridColumns Columns { get; init; } = GridColumns.All;

    public bool HasFilters => Filters.Any();

    /// <summary>The filters as query-string fields, in the order the address lists them.</summary>
    public IEnumerable<(string Key, string Value)> Filters
    {
        get
        {
            if (Status is not null) yield return (StatusKey, Status);
            if (Environment is not null) yield return (EnvironmentKey, Environment);
            if (Tag is not null) yield return (TagKey, Tag);
            if (Version is { } version) yield return (VersionKey, version.ToString(CultureInfo.InvariantCulture));
            if (Owner is not null) yield return (OwnerKey, Owner);
            if (Policy is { } policy) yield return (PolicyKey, policy.ToString());
            if (Text is not null) yield return (TextKey, Text);
        }
    }

    /// <summary>
    /// Builds a query from raw query-string (or form) values by name, ignoring what does not parse instead of failing the
    /// page: an address pasted from an older version or edited by hand still opens the grid.
    /// </summary>
    public static InstanceQuery Parse(Func<string, string?> value) => new()
    {
        Status = Blank(value(StatusKey)),
        Environment = Blank(value(EnvironmentKey)),
        Tag = Blank(value(TagKey)),
        Version = QueryNumber.Count(value(VersionKey)),
        Owner = Blank(value(OwnerKey)),
        Policy = Enum.TryParse<DesiredState>(value(PolicyKey), ignoreCase: true, out var policy) && Enum.IsDefined(policy) ? policy : null,
        Text = Blank(value(TextKey)),
        Sort = Enum.TryParse<GridColumn>(value(SortKey), ignoreCase: true, out var column) && Enum.IsDefined(column) && InstanceGrid.IsSortable(column)
            ? column : GridColumn.Name,
        Descending = string.Equals(value(DirectionKey), "desc", StringComparison.OrdinalIgnoreCase),
        Page = Math.Max(1, QueryNumber.Count(value(PageKey)) ?? 1),
        PageSize = QueryNumber.Count(value(PageSizeKey)) is { } size && PageSizes.Contains(size)
            ? size : DefaultPageSize,
        Columns = GridColumns.Parse(value(ColumnsKey)),
    };

    /// <summary>Sorting by another column starts on page 1; the same column again reverses the order.</summary>
    public InstanceQuery SortedBy(GridColumn column) => this with
    {
        Sort = column,
        Descending = column == Sort ? !Descending : InstanceGrid.DescendingFirst(column),
        Page = 1,
    };

    public string ToUrl(string path = GridPath)
    {
        var query = new StringBuilder();
        void Add(string name, string? value, bool escape = true)
        {
            if (string.IsNullOrEmpty(value)) return;
            query.Append(query.Length == 0 ? '?' : '&').Append(name).Append('=').Append(escape ? Uri.EscapeDataString(value) : value);
        }
        foreach (var (key, value) in Filters) Add(key, value);
        if (Sort != GridColumn.Name || Descending) Add(SortKey, Sort.ToString().ToLowerInvariant());
        if (Descending) Add(DirectionKey, "desc");
        if (Page > 1) Add(PageKey, Page.ToString(CultureInfo.InvariantCulture));
        if (PageSize != DefaultPageSize) Add(PageSizeKey, PageSize.ToString(CultureInfo.InvariantCulture));
        // Column names are letters only; their commas stay readable.
        if (Columns != GridColumns.All) Add(ColumnsKey, Columns.ToString(), escape: false);
        return path + query;
    }

    static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();
}

/// <summary>The grid's columns, in the order it shows them; also the names its address sorts and chooses them by.</summary>
public enum GridColumn
{
    Name,
    Status,
    Environment,
    Owner,
    Tags,
    Version,
    Ifi,
    Policy,
    TimeLost,
    Restore,
    LastPoll,
}

/// <summary>
/// The columns the grid shows, as a value (two views with the same columns are equal). The instance's name is always
/// shown: it is the row's link and what a reader finds a row by. In the address as <c>cols=name,status,ifi</c>;
/// absent, every column.
/// </summary>
public readonly record struct GridColumns
{
    readonly int _hidden;

    GridColumns(int hidden) => _hidden = hidden & ~Bit(GridColumn.Name);

    public static GridColumns All => default;

    public static IReadOnlyList<GridColumn> InOrder { get; } = Enum.GetValues<GridColumn>();

    public bool Shows(GridColumn column) => (_hidden & Bit(column)) == 0;

    public GridColumns With(GridColumn column, bool shown) => new(shown ? _hidden & ~Bit(column) : _hidden | Bit(column));

    public int Count => InOrder.Count(Shows);

    /// <summary>A comma-separated list of column names; unknown names are left out, and a list naming none is every column.</summary>
    public static GridColumns Parse(string? text)
    {
        var named = (text ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(name => Enum.TryParse<GridColumn>(name, ignoreCase: true, out var column) && Enum.IsDefined(column) ? column : (GridColumn?)null)
            .OfType<GridColumn>()
            .ToList();
        return named.Count == 0 ? All : new(InOrder.Where(c => !named.Contains(c)).Aggregate(0, (hidden, c) => hidden | Bit(c)));
    }

    public override string ToString() => string.Join(',', InOrder.Where(Shows).Select(c => c.ToString().ToLowerInvariant()));

    static int Bit(GridColumn column) => 1 << (int)column;
}

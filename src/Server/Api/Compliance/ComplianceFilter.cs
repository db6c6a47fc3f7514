using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.Api.Inventory;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>
/// Which assessed instances a list or export shows. Text filters match ignoring case; several statuses may be given
/// separated by commas. Paging is by instance id, like <c>/instances</c>.
/// </summary>
internal sealed record ComplianceFilter
{
    public const int DefaultLimit = 100;
    public const int MaxLimit = 500;

    public IReadOnlySet<ComplianceStatus>? Statuses { get; init; }
    public string? Environment { get; init; }
    public string? Tag { get; init; }
    public string? Owner { get; init; }
    public int? MajorVersion { get; init; }
    public bool? Stale { get; init; }
    public long AfterId { get; init; }
    public int Limit { get; init; } = DefaultLimit;

    /// <param name="paged">False for the export, which takes every matching row and no limit or cursor.</param>
    public static ComplianceFilter? Parse(IQueryCollection query, bool paged, FieldErrors errors)
    {
        HashSet<ComplianceStatus>? statuses = null;
        if (QueryValues.Single(query, "status", errors) is { } statusText)
        {
            statuses = [];
            foreach (var part in statusText.Split(','))
            {
                if (ComplianceResources.IsStatus(part.Trim(), out var status))
                    statuses.Add(status);
                else
                    errors.Add("status", $"One or more of {string.Join(", ", Enum.GetNames<ComplianceStatus>())}, separated by commas.");
            }
        }

        long afterId = 0;
        if (paged && QueryValues.Single(query, "cursor", errors) is { } cursor && !PageCursor.TryDecode(cursor, out afterId))
            errors.Add("cursor", "Not a cursor this API handed out; start again without one.");

        var filter = new ComplianceFilter
        {
            Statuses = statuses,
            Environment = QueryValues.Text(query, "environment", errors),
            Tag = QueryValues.Text(query, "tag", errors),
            Owner = QueryValues.Text(query, "owner", errors),
            MajorVersion = QueryValues.Int(query, "majorVersion", 0, 99, errors),
            Stale = QueryValues.Bool(query, "stale", errors),
            AfterId = afterId,
            Limit = paged ? QueryValues.Int(query, "limit", 1, MaxLimit, errors) ?? DefaultLimit : int.MaxValue,
        };
        return errors.Any ? null : filter;
    }

    public bool Matches(InstanceAssessment a) =>
        a.Registration.Id > AfterId
        && (Statuses is null || Statuses.Contains(a.Compliance.Status))
        && (Environment is null || string.Equals(a.Registration.Environment, Environment, StringComparison.OrdinalIgnoreCase))
        && (Owner is null || string.Equals(a.Registration.Owner, Owner, StringComparison.OrdinalIgnoreCase))
        && (Tag is null || a.Registration.Tags.Contains(Tag, StringComparer.OrdinalIgnoreCase))
        && (MajorVersion is null || a.Facts.MajorVersion == MajorVersion)
        && (Stale is null || a.Compliance.IsStale == Stale);
}

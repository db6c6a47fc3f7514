using System.ComponentModel;
using IfiDashboard.Server.Http;
using IfiDashboard.Server.OpenApi;
using Microsoft.OpenApi;

namespace IfiDashboard.Server.Api.Compliance;

// Query parameters declared for the OpenAPI document. Handlers parse the raw query themselves (ComplianceFilter,
// TimeWindow, QueryValues) so that a bad value is answered with a problem naming it.
// No record derives from another: the Request Delegate Generator binds (and describes) only the properties an
// [AsParameters] type declares itself, so a handler takes the shared set as a second [AsParameters] parameter.

/// <summary>The filters shared by the compliance list and the export.</summary>
public sealed record ComplianceFilterParameters
{
    [Description("Only these statuses, comma-separated: Compliant, NonCompliant, Waived, Unknown, NotApplicable (ignoring case).")]
    public string? Status { get; init; }

    [Description("Only instances in this environment (ignoring case).")]
    public string? Environment { get; init; }

    [Description("Only instances carrying this tag (ignoring case).")]
    public string? Tag { get; init; }

    [Description("Only instances of this owner (ignoring case).")]
    public string? Owner { get; init; }

    [Description("Only this SQL Server major version (15 = 2019, 16 = 2022; 0 = not known yet).")]
    [ApiType(JsonSchemaType.Integer)]
    public string? MajorVersion { get; init; }

    [Description("true: only instances whose last good poll is older than three poll intervals; false: only the others.")]
    [ApiType(JsonSchemaType.Boolean)]
    public string? Stale { get; init; }
}

/// <summary>The compliance list's paging, beside <see cref="ComplianceFilterParameters"/>.</summary>
public sealed record ComplianceListParameters
{
    [Description("Page size, 1 to 500; default 100.")]
    [ApiType(JsonSchemaType.Integer)]
    public string? Limit { get; init; }

    [Description("The nextCursor of the previous page; omit for the first page.")]
    public string? Cursor { get; init; }
}

/// <summary>The [from, to) window shared by the time-based endpoints.</summary>
public sealed record WindowParameters
{
    [Description("Window start (inclusive), ISO-8601 date or time; default 30 days before to. At most 366 days before to.")]
    public string? From { get; init; }

    [Description("Window end (exclusive), ISO-8601 date or time; default the latest assessment's time.")]
    public string? To { get; init; }
}

/// <summary>The growth events' paging, beside <see cref="WindowParameters"/>.</summary>
public sealed record GrowthEventParameters
{
    [Description("Page size, 1 to 1000; default 200.")]
    [ApiType(JsonSchemaType.Integer)]
    public string? Limit { get; init; }

    [Description("The nextCursor of the previous page, with the same from and to; omit for the first page.")]
    public string? Cursor { get; init; }
}

/// <summary>The time lost's grouping, beside <see cref="WindowParameters"/>.</summary>
public sealed record TimeLostParameters
{
    [Description("instance (default), database or environment.")]
    [ApiValues("instance", "database", "environment")]
    public string? GroupBy { get; init; }
}

public sealed record RestoreRiskParameters
{
    [Description("How many entries each list holds, 1 to 500; default 10.")]
    [ApiType(JsonSchemaType.Integer)]
    public string? Top { get; init; }
}

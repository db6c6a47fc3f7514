using System.ComponentModel;
using IfiDashboard.Server.OpenApi;
using Microsoft.OpenApi;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>
/// The list's query parameters, declared for the OpenAPI document. The handler parses the raw query itself
/// (<see cref="InstanceListQuery"/>) so that a bad value is answered with a problem naming it.
/// </summary>
public sealed record InstanceListParameters
{
    [Description("Only instances in this environment (ignoring case).")]
    public string? Environment { get; init; }

    [Description("Only instances of this owner (ignoring case).")]
    public string? Owner { get; init; }

    [Description("Only instances carrying this tag (ignoring case).")]
    public string? Tag { get; init; }

    [Description("Only instances whose name or host contains this text (ignoring case).")]
    public string? Q { get; init; }

    [Description("true to list retired instances too; default false.")]
    [ApiType(JsonSchemaType.Boolean)]
    public string? IncludeRetired { get; init; }

    [Description("Only instances registered, changed or retired at or after this ISO-8601 date or time (a date is midnight UTC).")]
    public string? UpdatedSince { get; init; }

    [Description("The order of the pages: id (default), name (ignoring case) or updatedAt (oldest change first). Each ends with the id.")]
    [ApiValues("id", "name", "updatedAt")]
    public string? Sort { get; init; }

    [Description("Page size, 1 to 500; default 100.")]
    [ApiType(JsonSchemaType.Integer)]
    public string? Limit { get; init; }

    [Description("The nextCursor of the previous page; omit for the first page.")]
    public string? Cursor { get; init; }
}

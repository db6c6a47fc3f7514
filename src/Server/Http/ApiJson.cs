using System.Text.Json;
using System.Text.Json.Serialization;

namespace IfiDashboard.Server.Http;

/// <summary>
/// How request bodies are read: the web defaults, but strict about what a CMDB might get wrong silently. Unknown
/// fields, duplicate properties and numbers in strings are errors; nesting is shallow.
/// </summary>
internal static class ApiJson
{
    public static readonly JsonSerializerOptions Strict = new(JsonSerializerDefaults.Web)
    {
        NumberHandling = JsonNumberHandling.Strict,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
        AllowDuplicateProperties = false,
        MaxDepth = 16,
    };
}

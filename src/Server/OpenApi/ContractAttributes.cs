using Microsoft.OpenApi;

namespace IfiDashboard.Server.OpenApi;

/// <summary>
/// The values a string field of the API takes, for the OpenAPI document (<see cref="ContractSchemaTransformer"/>):
/// an enumeration's names (as <c>ToString()</c> writes them), or the listed words.
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class ApiValuesAttribute : Attribute
{
    public ApiValuesAttribute(Type enumeration) => Values = Enum.GetNames(enumeration);

    public ApiValuesAttribute(params string[] values) => Values = values;

    public IReadOnlyList<string> Values { get; }
}

/// <summary>
/// The JSON type of a query parameter the handler reads from the raw query (so that a bad value is a problem naming
/// it): the document gives its real type, which binding it would have needed.
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class ApiTypeAttribute(JsonSchemaType type) : Attribute
{
    public JsonSchemaType Type { get; } = type;
}

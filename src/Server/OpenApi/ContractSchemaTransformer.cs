using System.Reflection;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Mvc.Infrastructure;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using IfiDashboard.Shared.Contracts;

namespace IfiDashboard.Server.OpenApi;

/// <summary>
/// What the schema generator cannot see in a string: the values an enumerated field takes
/// (<see cref="ApiValuesAttribute"/>), the type of a query parameter read by hand (<see cref="ApiTypeAttribute"/>) and
/// the fields kept as deprecated aliases (<see cref="DeprecatedAliasAttribute"/>).
/// The API writes enumerations as their names through strings, so a generated client gets a union type only from here.
/// </summary>
internal sealed class ContractSchemaTransformer : IOpenApiSchemaTransformer
{
    public Task TransformAsync(OpenApiSchema schema, OpenApiSchemaTransformerContext context, CancellationToken cancellationToken)
    {
        // A body's field, or a query parameter declared by a property of an [AsParameters] record.
        var attributes = context.JsonPropertyInfo?.AttributeProvider
                         ?? (context.ParameterDescription?.ParameterDescriptor as IParameterInfoParameterDescriptor)?.ParameterInfo;
        if (attributes is null)
            return Task.CompletedTask;

        if (Attribute<ApiValuesAttribute>(attributes) is { } values)
        {
            schema.Enum = [.. values.Values.Select(v => (JsonNode)JsonValue.Create(v))];
            // A nullable field's null is a value too; JSON Schema's enum would otherwise forbid it.
            if (schema.Type?.HasFlag(JsonSchemaType.Null) == true)
                schema.Enum.Add(null!);
        }

        if (Attribute<ApiTypeAttribute>(attributes) is { } type)
            schema.Type = type.Type;

        if (Attribute<DeprecatedAliasAttribute>(attributes) is { } alias)
        {
            schema.Deprecated = true;
            schema.Description = $"Deprecated alias of `{alias.Replacement}`, kept until v2 (docs/api.md).";
        }
        return Task.CompletedTask;
    }

    static T? Attribute<T>(ICustomAttributeProvider provider) where T : Attribute =>
        provider.GetCustomAttributes(typeof(T), inherit: true).OfType<T>().FirstOrDefault();
}

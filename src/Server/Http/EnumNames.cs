using System.Text.Json;
using System.Text.Json.Serialization;

namespace IfiDashboard.Server.Http;

/// <summary>
/// An enum as its name only (<c>NonCompliant</c>): <see cref="JsonStringEnumConverter{TEnum}"/> also takes numbers by
/// default, which the API refuses as it refuses numbers sent as strings. The OpenAPI document lists the names.
/// </summary>
public sealed class EnumNames<TEnum>() : JsonStringEnumConverter<TEnum>(namingPolicy: null, allowIntegerValues: false)
    where TEnum : struct, Enum;

/// <summary>An enum as its camel-case name (<c>ifiLost</c>), as the changes feed names its changes; never a number.</summary>
public sealed class CamelCaseEnumNames<TEnum>() : JsonStringEnumConverter<TEnum>(JsonNamingPolicy.CamelCase, allowIntegerValues: false)
    where TEnum : struct, Enum
{
    public static string NameOf(TEnum value) => JsonNamingPolicy.CamelCase.ConvertName(value.ToString());
}

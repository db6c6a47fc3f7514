using System.Data;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Store;

/// <summary>
/// A value the store keeps as JSON text in one column: an instance's tags, an API key's scopes, an alert's recipients
/// and attachments, a policy version's rules. Row classes and parameters hold this type, and Dapper turns it into
/// text and back through <see cref="StoreJson"/>'s handlers, so no store code serializes a column itself.
/// </summary>
/// <remarks>
/// A wrapper, not a handler for the list types themselves: Dapper's handlers are process-wide, and one for a list of
/// strings would end Dapper's expansion of lists into <c>IN @names</c> for every connection in the process, the
/// embedded collector's queries to SQL Server included.
/// </remarks>
internal sealed record JsonColumn<T>(T Value) where T : class;

/// <summary>How each <see cref="JsonColumn{T}"/> is written: the same text the store has always held for it.</summary>
internal static class StoreJson
{
    /// <summary>Tags, scopes and recipients: a JSON array of strings, non-ASCII escaped (System.Text.Json's default).</summary>
    static readonly JsonSerializerOptions Lists = JsonSerializerOptions.Default;

    /// <summary>Attachments: names in camel case, contents in base64.</summary>
    static readonly JsonSerializerOptions Attachments = new(JsonSerializerDefaults.Web);

    /// <summary>
    /// Policy rules: names in camel case, enums by name (the audit log writes them the same way). A host selector left
    /// empty is not written, so a rule without one keeps the text it had before selectors existed.
    /// </summary>
    internal static readonly JsonSerializerOptions Rules = new(JsonSerializerDefaults.Web)
    {
        Converters = { new JsonStringEnumConverter() },
        TypeInfoResolver = new DefaultJsonTypeInfoResolver { Modifiers = { OmitEmptyHostSelectors } },
    };

    static void OmitEmptyHostSelectors(JsonTypeInfo type)
    {
        if (type.Type != typeof(PolicyRule)) return;
        string[] selectors = [nameof(PolicyRule.Platforms), nameof(PolicyRule.Versions), nameof(PolicyRule.Editions), nameof(PolicyRule.Clusters)];
        foreach (var property in type.Properties)
            if (property.AttributeProvider is System.Reflection.MemberInfo member && selectors.Contains(member.Name))
                property.ShouldSerialize = (_, value) => value is System.Collections.IEnumerable list && list.GetEnumerator().MoveNext();
    }

    /// <summary>
    /// The text a string list is stored as. Recipient lists are also compared as this text (storm grouping counts
    /// the mail already sent to the same text), so it is the one place that text is made.
    /// </summary>
    public static string Text(IReadOnlyList<string> values) => JsonSerializer.Serialize(values, Lists);

    /// <summary>Registers one handler per column type; <see cref="StoreTypeHandlers"/> calls it once per process.</summary>
    internal static void AddDapperHandlers()
    {
        SqlMapper.AddTypeHandler(typeof(JsonColumn<IReadOnlyList<string>>), new Handler<IReadOnlyList<string>>(Lists));
        SqlMapper.AddTypeHandler(typeof(JsonColumn<IReadOnlyList<MailAttachment>>), new Handler<IReadOnlyList<MailAttachment>>(Attachments));
        SqlMapper.AddTypeHandler(typeof(JsonColumn<IReadOnlyList<PolicyRule>>), new Handler<IReadOnlyList<PolicyRule>>(Rules));
    }

    // ITypeHandler rather than TypeHandler<T>, as for times: a NULL parameter (no attachments) keeps its text type.
    sealed class Handler<T>(JsonSerializerOptions options) : SqlMapper.ITypeHandler where T : class
    {
        public void SetValue(IDbDataParameter parameter, object value)
        {
            parameter.DbType = DbType.String;
            parameter.Value = value is JsonColumn<T> column ? JsonSerializer.Serialize(column.Value, options) : DBNull.Value;
        }

        public object? Parse(Type destinationType, object value) => value switch
        {
            DBNull => null,
            string text => new JsonColumn<T>(JsonSerializer.Deserialize<T>(text, options)
                                              ?? throw new InvalidDataException($"A stored JSON column holds null where a {typeof(T).Name} was written.")),
            _ => throw new InvalidCastException($"A {value.GetType().Name} value cannot be read as JSON."),
        };
    }
}

/// <summary>The store's Dapper handlers (times, JSON columns), registered once per process before any query.</summary>
internal static class StoreTypeHandlers
{
    public static void Register() => _ = Registered.Value;

    static readonly Lazy<bool> Registered = new(() =>
    {
        StoreTime.AddDapperHandlers();
        StoreJson.AddDapperHandlers();
        return true;
    });
}

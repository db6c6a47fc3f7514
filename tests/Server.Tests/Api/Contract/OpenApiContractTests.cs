using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests.Api.Contract;

/// <summary>
/// The document an integrator generates a client from says what the server does: numbers are numbers, enumerated
/// strings are enums, every header and answer a client meets is declared, and a key with <c>read</c> fetches it.
/// </summary>
public sealed class OpenApiContractTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task A_read_key_fetches_the_document_as_X_Api_Key_and_as_Bearer()
    {
        var key = await shared.Host.CreateKeyAsync("read");
        var bearer = shared.Host.CreateClient();
        bearer.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", key);

        var asHeader = await shared.Host.Client(key).GetAsync("/openapi/v1.json");
        var asBearer = await bearer.GetAsync("/openapi/v1.json");
        var withoutRead = await shared.Host.Client(await shared.Host.CreateKeyAsync("inventory:write")).GetAsync("/openapi/v1.json");
        var withoutKey = await shared.Host.Client(null).GetAsync("/openapi/v1.json");

        Assert.Equal(HttpStatusCode.OK, asHeader.StatusCode);
        Assert.Equal(HttpStatusCode.OK, asBearer.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, withoutRead.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, withoutKey.StatusCode);
    }

    [Fact]
    public async Task No_field_is_typed_as_a_number_or_a_string()
    {
        var document = await DocumentAsync();

        var mixed = Walk(document, "#").Where(e => e.Node.TryGetProperty("type", out var type) && type.ValueKind == JsonValueKind.Array
                && type.EnumerateArray().Any(t => t.GetString() == "string")
                && type.EnumerateArray().Any(t => t.GetString() is "integer" or "number"))
            .Select(e => e.Path).ToList();

        Assert.True(Walk(document, "#").Any(e => e.Node.TryGetProperty("type", out var t) && t.ToString().Contains("integer", StringComparison.Ordinal)),
            "the walk saw no integer at all");
        Assert.Empty(mixed);
    }

    [Fact]
    public async Task Enumerated_strings_are_enums()
    {
        var schemas = (await DocumentAsync()).GetProperty("components").GetProperty("schemas");

        Assert.Equal<string?>(Enum.GetNames<EncryptMode>(), Values(schemas, "InstanceResource", "encrypt"));
        Assert.Equal<string?>([.. Enum.GetNames<EncryptMode>(), null], Values(schemas, "InstanceInput", "encrypt"));
        Assert.Equal<string?>(Enum.GetNames<ComplianceStatus>(), Values(schemas, "ComplianceRow", "status"));
        Assert.Equal<string?>(Enum.GetNames<DesiredState>(), Values(schemas, "DesiredStateResource", "state"));
        Assert.Equal<string?>(["status", "timeline", "inventory"], Values(schemas, "ChangeEntry", "kind"));
        Assert.Equal<string?>(["created", "updated", "unchanged"], Values(schemas, "PutInstanceResponse", "result"));
    }

    [Fact]
    public async Task Query_parameters_are_documented_as_the_handlers_read_them()
    {
        var paths = (await DocumentAsync()).GetProperty("paths");

        var names = Parameters(paths.GetProperty("/api/v1/instances").GetProperty("get"), "query");
        var upper = paths.EnumerateObject().SelectMany(p => p.Value.EnumerateObject().SelectMany(o => Parameters(o.Value, "query")
            .Where(n => char.IsUpper(n[0])).Select(n => $"{o.Name} {p.Name} {n}"))).ToList();

        Assert.Subset(names.ToHashSet(), new HashSet<string> { "limit", "cursor", "updatedSince", "sort", "includeRetired" });
        Assert.Contains("since", Parameters(paths.GetProperty("/api/v1/changes").GetProperty("get"), "query"));
        Assert.Empty(upper);
    }

    [Fact]
    public async Task Conditional_requests_headers_and_busy_answers_are_declared()
    {
        var paths = (await DocumentAsync()).GetProperty("paths");
        var get = paths.GetProperty("/api/v1/instances/{externalKey}").GetProperty("get");
        var put = paths.GetProperty("/api/v1/instances/{externalKey}").GetProperty("put");

        Assert.Contains("If-None-Match", Parameters(get, "header"));
        Assert.Contains("If-Match", Parameters(put, "header"));
        Assert.Contains("If-None-Match", Parameters(put, "header"));
        Assert.True(Headers(get, "200").TryGetProperty("ETag", out _));
        Assert.True(Headers(put, "201").TryGetProperty("Location", out _));
        Assert.True(Headers(put, "201").TryGetProperty("ETag", out _));
        Assert.True(Headers(put, "429").TryGetProperty("Retry-After", out _));
        var withoutBusy = paths.EnumerateObject().Where(p => p.Name.StartsWith("/api/v1", StringComparison.Ordinal))
            .SelectMany(p => p.Value.EnumerateObject().Where(o => !o.Value.GetProperty("responses").TryGetProperty("503", out _)).Select(o => $"{o.Name} {p.Name}"))
            .ToList();
        Assert.Empty(withoutBusy);
        Assert.True(Headers(put, "503").TryGetProperty("Retry-After", out _));
    }

    [Fact]
    public async Task The_display_name_has_its_own_field_and_instanceName_is_a_deprecated_alias_outside_the_inventory()
    {
        var schemas = (await DocumentAsync()).GetProperty("components").GetProperty("schemas");

        foreach (var schema in new[] { "ChangeEntry", "GrowthEventPage", "TimeLostGroup", "DatabaseRestoreRiskResource", "GrowthStallResource", "EvidenceWaiver" })
        {
            var properties = schemas.GetProperty(schema).GetProperty("properties");
            Assert.True(properties.TryGetProperty("displayName", out _), $"{schema} lacks displayName");
            Assert.True(properties.GetProperty("instanceName").GetProperty("deprecated").GetBoolean(), $"{schema}.instanceName is not deprecated");
        }
        var inventory = schemas.GetProperty("InstanceResource").GetProperty("properties").GetProperty("instanceName");
        Assert.False(inventory.TryGetProperty("deprecated", out _));
    }

    async Task<JsonElement> DocumentAsync()
    {
        var client = shared.Host.Client(await shared.Host.CreateKeyAsync("read"));
        return JsonDocument.Parse(await client.GetStringAsync("/openapi/v1.json")).RootElement;
    }

    static IEnumerable<(string Path, JsonElement Node)> Walk(JsonElement node, string path)
    {
        if (node.ValueKind == JsonValueKind.Object)
        {
            yield return (path, node);
            foreach (var property in node.EnumerateObject())
                foreach (var inner in Walk(property.Value, path + "/" + property.Name))
                    yield return inner;
        }
        else if (node.ValueKind == JsonValueKind.Array)
        {
            var i = 0;
            foreach (var item in node.EnumerateArray())
                foreach (var inner in Walk(item, $"{path}/{i++}"))
                    yield return inner;
        }
    }

    static List<string?> Values(JsonElement schemas, string schema, string property) =>
        schemas.GetProperty(schema).GetProperty("properties").GetProperty(property).GetProperty("enum")
            .EnumerateArray().Select(v => v.ValueKind == JsonValueKind.Null ? null : v.GetString()).ToList();

    static IEnumerable<string> Parameters(JsonElement operation, string location) =>
        operation.TryGetProperty("parameters", out var parameters)
            ? parameters.EnumerateArray().Where(p => p.GetProperty("in").GetString() == location).Select(p => p.GetProperty("name").GetString()!)
            : [];

    static JsonElement Headers(JsonElement operation, string status) =>
        operation.GetProperty("responses").GetProperty(status).GetProperty("headers");
}

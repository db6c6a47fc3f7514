using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;

namespace IfiDashboard.Server.OpenApi;

/// <summary>
/// Declares on each /api/v1 operation what every endpoint of a kind does, so that the document says all a client
/// meets (docs/api.md): the conditional-request headers of the operations that answer 304 or 412, the headers of
/// 200/201/429/503 answers, a 503 while the store is busy, and the query parameters as the handlers read them.
/// </summary>
internal sealed class ContractOperationTransformer : IOpenApiOperationTransformer
{
    public Task TransformAsync(OpenApiOperation operation, OpenApiOperationTransformerContext context, CancellationToken cancellationToken)
    {
        var path = context.Description.RelativePath ?? "";
        if (!path.StartsWith("api/v1", StringComparison.Ordinal))
            return Task.CompletedTask;

        CamelCaseQueryParameters(operation);
        var responses = operation.Responses ??= [];
        var conditionalRead = responses.ContainsKey("304");
        var conditionalWrite = responses.ContainsKey("412");
        if (conditionalRead)
            AddHeaderParameter(operation, "If-None-Match", "An ETag of an earlier answer: 304 Not Modified while it still holds.");
        if (conditionalWrite)
        {
            AddHeaderParameter(operation, "If-Match", "The ETag the change is based on (or *: the instance must exist); 412 when it no longer holds.");
            AddHeaderParameter(operation, "If-None-Match", "* to create only; 412 when the key is already active.");
        }

        foreach (var (status, response) in responses)
        {
            if (response is not OpenApiResponse declared)
                continue;
            if ((conditionalRead || conditionalWrite) && status is "200" or "201")
                AddHeader(declared, "ETag", "The representation's strong entity tag, for If-None-Match and If-Match.");
            if (status == "201")
                AddHeader(declared, "Location", "The created resource.");
            if (status == "429")
                AddHeader(declared, "Retry-After", "Seconds to wait before trying again.", JsonSchemaType.Integer);
        }

        // The key's limit is counted once it is known, so every answer but the key's refusals says where it stands.
        if (!path.StartsWith("api/v1/collector", StringComparison.Ordinal))
            foreach (var (status, response) in responses)
                if (status is not ("401" or "403") && response is OpenApiResponse declared)
                {
                    AddHeader(declared, "RateLimit-Policy", "The key's limit (IETF draft): \"api-key\";q=<requests>;w=<window seconds>.");
                    AddHeader(declared, "RateLimit", "What is left of it (IETF draft): \"api-key\";r=<remaining>;t=<seconds until the window ends>.");
                }

        // The collector API answers every refusal as a problem (docs/api.md, "Collector API"); its handlers declare none.
        if (path.StartsWith("api/v1/collector", StringComparison.Ordinal))
            foreach (var (status, description) in CollectorRefusals)
                responses.TryAdd(status, Problem(context.Document, description));

        if (!responses.ContainsKey("503"))
        {
            var busy = Problem(context.Document, "The store is busy or restarting; nothing changed. Retry after the seconds Retry-After gives.");
            AddHeader(busy, "Retry-After", "Seconds to wait before trying again.", JsonSchemaType.Integer);
            responses["503"] = busy;
        }
        return Task.CompletedTask;
    }

    static readonly (string Status, string Description)[] CollectorRefusals =
    [
        ("400", "A field out of range (finishedAt, maxCount, leaseSeconds, version, outboxDepth)."),
        ("401", "No collector key, or an unknown one."),
        ("403", "The key belongs to another collector than the request names, or lacks snapshot:ingest."),
        ("409", "A snapshot of an instance this collector did not lease last."),
        ("413", "The body is over Ingestion:MaxSnapshotBytes or Ingestion:MaxRequestBytes."),
        ("429", "The collector already holds Ingestion:MaxLeasesPerCollector leases."),
    ];

    static OpenApiResponse Problem(OpenApiDocument? document, string description) => new()
    {
        Description = description,
        Content = new Dictionary<string, OpenApiMediaType>
        {
            ["application/problem+json"] = new() { Schema = new OpenApiSchemaReference("ProblemDetails", document) },
        },
    };

    // The parameter records only document the query (the handlers read it by hand, in camelCase, so that a bad value
    // is a problem naming it); their property names would otherwise be documented as written in C#.
    static void CamelCaseQueryParameters(OpenApiOperation operation)
    {
        foreach (var parameter in operation.Parameters?.OfType<OpenApiParameter>() ?? [])
            if (parameter is { In: ParameterLocation.Query, Name: [var first, ..] name } && char.IsUpper(first))
                parameter.Name = char.ToLowerInvariant(first) + name[1..];
    }

    static void AddHeaderParameter(OpenApiOperation operation, string name, string description)
    {
        operation.Parameters ??= [];
        if (operation.Parameters.Any(p => p.In == ParameterLocation.Header && string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase)))
            return;
        operation.Parameters.Add(new OpenApiParameter
        {
            Name = name,
            In = ParameterLocation.Header,
            Required = false,
            Description = description,
            Schema = new OpenApiSchema { Type = JsonSchemaType.String },
        });
    }

    internal static void AddHeader(OpenApiResponse response, string name, string description, JsonSchemaType type = JsonSchemaType.String)
    {
        response.Headers ??= new Dictionary<string, IOpenApiHeader>();
        response.Headers.TryAdd(name, new OpenApiHeader { Description = description, Schema = new OpenApiSchema { Type = type } });
    }
}

/// <summary>
/// The document-wide part of the contract: tags described for the reference page and generated clients, and server
/// URLs without the trailing slash the request's base address gives (a client joins them with paths that start with one).
/// </summary>
internal sealed class ContractDocumentTransformer : IOpenApiDocumentTransformer
{
    static readonly Dictionary<string, string> TagDescriptions = new(StringComparer.Ordinal)
    {
        ["Inventory"] = "The instances a CMDB registers, updates, syncs and retires, keyed by its external key.",
        ["Compliance"] = "The latest fleet assessment: summary, each instance's status with its reasons, time lost, restore risk, export.",
        ["Changes"] = "The changes feed: inventory, compliance status and IFI timeline changes after a cursor.",
        ["API keys"] = "Keys and their scopes (admin).",
        ["Audit"] = "The audit log and the counts of refused requests (audit:read).",
        ["Reports"] = "The auditors' evidence report of a period, signed.",
        ["Remediation"] = "Remediation packs: the script and change plan that grant or revoke the privilege.",
        ["Collectors"] = "The collectors heard from, standalone or embedded (admin).",
        ["Collector"] = "The API standalone collectors use: lease due instances, deliver snapshots, complete leases.",
        ["Policy"] = "The policy's rules and the waivers granted against it: time-boxed, four-eyes approved (policy:write).",
    };

    public Task TransformAsync(OpenApiDocument document, OpenApiDocumentTransformerContext context, CancellationToken cancellationToken)
    {
        foreach (var server in document.Servers ?? [])
            if (server.Url is { Length: > 1 } url && url.EndsWith('/'))
                server.Url = url.TrimEnd('/');
        foreach (var tag in document.Tags ?? new HashSet<OpenApiTag>())
            if (tag.Name is { } name && TagDescriptions.TryGetValue(name, out var description))
                tag.Description ??= description;
        return Task.CompletedTask;
    }
}


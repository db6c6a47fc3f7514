namespace IfiDashboard.Server.Tests.Api;

/// <summary>Request bodies as a CMDB would send them.</summary>
internal static class ApiTestData
{
    public static Dictionary<string, object?> Instance(string name, string? externalKey = null, int port = 1433,
        string environment = "Production", string? owner = "dba-team", string[]? tags = null) => new()
    {
        ["externalKey"] = externalKey,
        ["name"] = name,
        ["host"] = name.ToLowerInvariant() + ".corp.example",
        ["port"] = port,
        ["environment"] = environment,
        ["owner"] = owner,
        ["tags"] = tags ?? ["tier1"],
        ["encrypt"] = "Mandatory",
        ["credentialName"] = "fleet_reader",
        ["pollIntervalSeconds"] = 300,
    };

    /// <summary>A PUT body: the key is in the URL.</summary>
    public static Dictionary<string, object?> PutBody(string name, int port = 1433, string environment = "Production",
        string? owner = "dba-team", string[]? tags = null)
    {
        var body = Instance(name, null, port, environment, owner, tags);
        body.Remove("externalKey");
        return body;
    }

    public static object Sync(IEnumerable<Dictionary<string, object?>> instances, bool dryRun = false, bool? retireMissing = null) =>
        retireMissing is null
            ? new { instances, dryRun }
            : new { instances, dryRun, retireMissing };
}

using System.Text.Json.Serialization;
using IfiDashboard.Server.OpenApi;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Api.Inventory;

// Bodies of /api/v1/instances. Inputs are all nullable so that a missing field is reported by name instead of
// failing deserialisation; unknown fields are rejected (ApiJson.Strict and the attribute, for the OpenAPI schema).

/// <summary>An instance as the CMDB describes it. PUT takes the key from the URL; sync needs it in each item.</summary>
[JsonUnmappedMemberHandling(JsonUnmappedMemberHandling.Disallow)]
public sealed record InstanceInput
{
    /// <summary>The CMDB's key (sync only; in a PUT body it must equal the URL's).</summary>
    public string? ExternalKey { get; init; }
    public string? Name { get; init; }
    /// <summary>DNS name, IPv4 or IPv6 address; no scheme, no port.</summary>
    public string? Host { get; init; }
    /// <summary>TCP port 1–65535; or give instanceName, not both.</summary>
    public int? Port { get; init; }
    /// <summary>Named instance (resolved by the SQL Browser service); or give port, not both.</summary>
    public string? InstanceName { get; init; }
    /// <summary>Default "Production".</summary>
    public string? Environment { get; init; }
    public string? Owner { get; init; }
    public List<string?>? Tags { get; init; }
    /// <summary>Mandatory (default), Optional or Strict.</summary>
    [ApiValues(typeof(EncryptMode))]
    public string? Encrypt { get; init; }
    public bool? TrustServerCertificate { get; init; }
    public string? HostNameInCertificate { get; init; }
    /// <summary>An absolute path of a certificate file in the credential's CertificateFolder on the collector's machine that the server's certificate must equal (pinning).</summary>
    public string? ServerCertificatePath { get; init; }
    /// <summary>The name a collector resolves to a login locally; omit for integrated security.</summary>
    public string? CredentialName { get; init; }
    /// <summary>30–86400; default 300.</summary>
    public int? PollIntervalSeconds { get; init; }
}

/// <summary>The CMDB's full desired inventory.</summary>
[JsonUnmappedMemberHandling(JsonUnmappedMemberHandling.Disallow)]
public sealed record SyncRequest
{
    public List<InstanceInput?>? Instances { get; init; }
    /// <summary>Report what would change and change nothing.</summary>
    public bool? DryRun { get; init; }
    /// <summary>Retire CMDB-registered instances the payload leaves out (default true).</summary>
    public bool? RetireMissing { get; init; }
}

/// <summary>
/// External keys by what the sync did (or on a dry run would do) to them; with <c>mode=partial</c>, the items it left
/// out in <c>rejected</c> (always empty otherwise: all or nothing refuses the whole request instead).
/// </summary>
public sealed record SyncResponse(
    bool DryRun,
    IReadOnlyList<string> Created,
    IReadOnlyList<string> Updated,
    IReadOnlyList<string> Retired,
    IReadOnlyList<string> Unchanged,
    IReadOnlyList<RejectedSyncItem> Rejected);

/// <summary>
/// An item a partial sync left out: its index in <c>instances</c>, its key when readable, 400 (a broken rule) or 409
/// (a name or server in use), and the errors by path (<c>instances[3].port</c>) as a problem document gives them.
/// </summary>
public sealed record RejectedSyncItem(int Index, string? ExternalKey, int Status,
    IReadOnlyDictionary<string, string[]> Errors);

/// <summary>The sync's query parameters, declared for the OpenAPI document (the handler reads the query itself).</summary>
public sealed record SyncParameters
{
    public const string AllOrNothing = "all";
    public const string Partial = "partial";

    [System.ComponentModel.Description("all (the default): one rejected item rejects the request; partial: store the valid items and report the others.")]
    [ApiValues(AllOrNothing, Partial)]
    public string? Mode { get; init; }
}

/// <summary>A registration in the way of a refused write: its id, name and the dashboard's page of it.</summary>
public sealed record ExistingRegistration(long Id, string Name, string Link);

/// <summary>A PUT's outcome: "created", "updated" or "unchanged", and the instance as stored.</summary>
public sealed record PutInstanceResponse([property: ApiValues("created", "updated", "unchanged")] string Result, InstanceResource Instance);

public sealed record InstancePage(IReadOnlyList<InstanceResource> Items, string? NextCursor);

/// <summary>A registered instance. <c>externalKey</c> is null for instances not registered by a CMDB.</summary>
public sealed record InstanceResource(
    long Id,
    string? ExternalKey,
    string Name,
    string Host,
    int? Port,
    string? InstanceName,
    string Environment,
    string? Owner,
    IReadOnlyList<string> Tags,
    [property: ApiValues(typeof(EncryptMode))] string Encrypt,
    bool TrustServerCertificate,
    string? HostNameInCertificate,
    string? ServerCertificatePath,
    string? CredentialName,
    int PollIntervalSeconds,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt,
    DateTimeOffset? RetiredAt,
    long Version)
{
    public static InstanceResource From(InventoryRecord record)
    {
        var r = record.Registration;
        return new InstanceResource(r.Id, record.ExternalKey, r.Name, r.Host, r.Port, r.InstanceName, r.Environment,
            r.Owner, r.Tags, r.Encrypt.ToString(), r.TrustServerCertificate, r.HostNameInCertificate, r.ServerCertificatePath, r.CredentialName,
            r.PollIntervalSeconds, record.CreatedAt, record.UpdatedAt, r.RetiredAt, record.Version);
    }
}

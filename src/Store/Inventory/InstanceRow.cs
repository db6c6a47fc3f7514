using System.Data;
using Dapper;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Store.Inventory;

/// <summary>An <c>instances</c> row as Dapper reads it; columns are aliased to these property names.</summary>
internal sealed class InstanceRow
{
    /// <summary>The select list (and RETURNING list) every inventory query shares.</summary>
    public const string Columns = """
        id AS Id, name AS Name, host AS Host, port AS Port, instance_name AS InstanceName,
        environment AS Environment, owner AS Owner, tags AS Tags, encrypt AS Encrypt,
        trust_server_certificate AS TrustServerCertificate, host_name_in_certificate AS HostNameInCertificate,
        server_certificate_path AS ServerCertificatePath, credential_name AS CredentialName, poll_interval_seconds AS PollIntervalSeconds, retired_at AS RetiredAt
        """;

    /// <summary><see cref="Columns"/> plus what the REST API shows: the CMDB's key, times and the ETag's version.</summary>
    public const string InventoryColumns = Columns + """
        , external_key AS ExternalKey, created_at AS CreatedAt, COALESCE(updated_at, created_at) AS UpdatedAt,
        version AS Version
        """;

    public long Id { get; init; }
    public string Name { get; init; } = "";
    public string Host { get; init; } = "";
    public long? Port { get; init; }
    public string? InstanceName { get; init; }
    public string Environment { get; init; } = "";
    public string? Owner { get; init; }
    public JsonColumn<IReadOnlyList<string>> Tags { get; init; } = new([]);
    public string Encrypt { get; init; } = "";
    public long TrustServerCertificate { get; init; }
    public string? HostNameInCertificate { get; init; }
    public string? ServerCertificatePath { get; init; }
    public string? CredentialName { get; init; }
    public long PollIntervalSeconds { get; init; }
    public DateTimeOffset? RetiredAt { get; init; }
    public string? ExternalKey { get; init; }
    public DateTimeOffset CreatedAt { get; init; }
    public DateTimeOffset UpdatedAt { get; init; }
    public long Version { get; init; }
    /// <summary>The server's name for itself at its last good poll; only read where duplicates are looked for.</summary>
    public string? PolledServerName { get; init; }
    /// <summary>Only read by the lease query, which orders what it hands out by it.</summary>
    public string? NextPollAt { get; init; }
    /// <summary>Only read by the lease query: the collector this lease took the instance from, when it was a takeover.</summary>
    public string? TakenFrom { get; init; }

    public InstanceRegistration ToRegistration() => new()
    {
        Id = Id,
        Name = Name,
        Host = Host,
        Port = Port is { } port ? (int)port : null,
        InstanceName = InstanceName,
        Environment = Environment,
        Owner = Owner,
        Tags = Tags.Value,
        Encrypt = Enum.Parse<EncryptMode>(Encrypt),
        TrustServerCertificate = TrustServerCertificate != 0,
        HostNameInCertificate = HostNameInCertificate,
        ServerCertificatePath = ServerCertificatePath,
        CredentialName = CredentialName,
        PollIntervalSeconds = (int)PollIntervalSeconds,
        RetiredAt = RetiredAt,
    };

    /// <summary>Only for rows read with <see cref="InventoryColumns"/>.</summary>
    public InventoryRecord ToInventoryRecord() => new(
        ToRegistration(), ExternalKey, CreatedAt, UpdatedAt, Version, PolledServerName);

    /// <summary>Parameters for writing a registration; names match the @parameters of the inventory SQL.</summary>
    public static DynamicParameters Parameters(InstanceRegistration r, DateTimeOffset now)
    {
        var parameters = new DynamicParameters();
        Add(parameters, r, "");
        parameters.Add("now", now);
        return parameters;
    }

    /// <summary>The columns an insert writes (with <c>created_at</c> = @now and the CMDB's key last).</summary>
    public const string InsertColumns = """
        name, host, port, instance_name, environment, owner, tags, encrypt,
        trust_server_certificate, host_name_in_certificate, server_certificate_path, credential_name, poll_interval_seconds,
        created_at, external_key
        """;

    /// <summary>The VALUES row of <see cref="InsertColumns"/> whose parameters end in <paramref name="suffix"/>
    /// (<see cref="Add"/>): one row of a multi-row insert, or "" for one.</summary>
    public static string InsertValues(string suffix) =>
        $"(@name{suffix}, @host{suffix}, @port{suffix}, @instanceName{suffix}, @environment{suffix}, @owner{suffix}, @tags{suffix}, " +
        $"@encrypt{suffix}, @trustServerCertificate{suffix}, @hostNameInCertificate{suffix}, @serverCertificatePath{suffix}, " +
        $"@credentialName{suffix}, @pollIntervalSeconds{suffix}, @now, @externalKey{suffix})";

    /// <summary>Adds a registration's values, each parameter's name ending in <paramref name="suffix"/>, typed as the
    /// columns are (a NULL keeps its type). An insert adds <c>@externalKey</c> itself.</summary>
    public static void Add(DynamicParameters parameters, InstanceRegistration r, string suffix)
    {
        parameters.Add("name" + suffix, r.Name, DbType.String);
        parameters.Add("host" + suffix, r.Host, DbType.String);
        parameters.Add("port" + suffix, r.Port, DbType.Int32);
        parameters.Add("instanceName" + suffix, r.InstanceName, DbType.String);
        parameters.Add("environment" + suffix, r.Environment, DbType.String);
        parameters.Add("owner" + suffix, r.Owner, DbType.String);
        parameters.Add("tags" + suffix, new JsonColumn<IReadOnlyList<string>>(r.Tags));
        parameters.Add("encrypt" + suffix, r.Encrypt.ToString(), DbType.String);
        parameters.Add("trustServerCertificate" + suffix, r.TrustServerCertificate ? 1L : 0L, DbType.Int64); // booleans are stored as 0/1 on both providers
        parameters.Add("hostNameInCertificate" + suffix, r.HostNameInCertificate, DbType.String);
        parameters.Add("serverCertificatePath" + suffix, r.ServerCertificatePath, DbType.String);
        parameters.Add("credentialName" + suffix, r.CredentialName, DbType.String);
        parameters.Add("pollIntervalSeconds" + suffix, r.PollIntervalSeconds, DbType.Int32);
    }
}

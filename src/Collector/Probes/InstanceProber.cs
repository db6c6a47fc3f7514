using Dapper;
using IfiDashboard.Collector.Connections;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// Polls one instance: connect, then each probe on its own, each failure classified. Never throws for anything the
/// instance does; the snapshot records it.
/// </summary>
public sealed class InstanceProber(ConnectionStringFactory connectionStrings, CollectorOptions options, TimeProvider time)
{
    public async Task<InstanceSnapshot> PollAsync(InstanceRegistration instance, CancellationToken cancellationToken)
    {
        var started = time.GetUtcNow();
        var probes = new List<ProbeOutcome>();
        InstanceIdentity? identity = null;
        IReadOnlyList<ServiceInfo> services = [];

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(options.PollDeadlineSeconds));
        var ct = deadline.Token;

        SqlConnection? connection = null;
        try
        {
            connection = new SqlConnection(connectionStrings.Build(instance));
            await connection.OpenAsync(ct);
            probes.Add(new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok));
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested)
        {
            probes.Add(FailureClassifier.Classify(ProbeNames.Connect, e));
            if (connection is not null)
            {
                SqlConnection.ClearPool(connection);
                await connection.DisposeAsync();
            }
            connection = null;
        }

        if (connection is not null)
        {
            await using (connection)
            {
                identity = await ProbeAsync(probes, ProbeNames.Identity, null, () => ReadIdentityAsync(connection, ct));
                if (identity is { MajorVersion: >= 14 })
                    identity = await ProbeAsync(probes, ProbeNames.HostInfo, null, () => AddHostInfoAsync(connection, identity, ct)) ?? identity;
                services = await ProbeServicesAsync(connection, identity, probes, ct);
                // Close the physical connection instead of parking it in the pool until the next poll.
                SqlConnection.ClearPool(connection);
            }
        }

        return new InstanceSnapshot
        {
            SnapshotId = Guid.NewGuid(),
            InstanceId = instance.Id,
            StartedAt = started,
            FinishedAt = time.GetUtcNow(),
            CollectorName = options.Name,
            Identity = identity,
            Services = services,
            Probes = probes,
        };
    }

    /// <summary>Runs one probe; a failure becomes its classified outcome and a null result.</summary>
    static async Task<T?> ProbeAsync<T>(List<ProbeOutcome> probes, string name, string? permission, Func<Task<T>> probe)
        where T : class
    {
        try
        {
            var result = await probe();
            probes.Add(new ProbeOutcome(name, OutcomeClass.Ok));
            return result;
        }
        catch (Exception e)
        {
            probes.Add(FailureClassifier.Classify(name, e, permission));
            return null;
        }
    }

    static CommandDefinition Command(string script, int timeoutSeconds, CancellationToken ct) =>
        new(SqlScripts.Get(script), commandTimeout: timeoutSeconds, cancellationToken: ct);

    async Task<InstanceIdentity> ReadIdentityAsync(SqlConnection connection, CancellationToken ct)
    {
        var row = await connection.QuerySingleAsync<IdentityRow>(Command(SqlScripts.Identity, options.CommandTimeoutSeconds, ct));
        return new InstanceIdentity
        {
            ProductVersion = row.ProductVersion,
            ProductLevel = row.ProductLevel,
            ProductUpdateLevel = row.ProductUpdateLevel,
            Edition = row.Edition ?? "",
            EngineEdition = row.EngineEdition ?? 0,
            MachineName = row.MachineName,
            ServerName = row.ServerName ?? "",
            InstanceName = row.InstanceName,
            IsClustered = row.IsClustered == 1,
            ProcessId = row.ProcessId,
        };
    }

    async Task<InstanceIdentity> AddHostInfoAsync(SqlConnection connection, InstanceIdentity identity, CancellationToken ct)
    {
        var host = await connection.QuerySingleAsync<HostInfoRow>(Command(SqlScripts.HostInfo, options.CommandTimeoutSeconds, ct));
        return identity with
        {
            HostPlatform = host.host_platform,
            HostDistribution = host.host_distribution,
            HostRelease = host.host_release,
        };
    }

    async Task<IReadOnlyList<ServiceInfo>> ProbeServicesAsync(SqlConnection connection, InstanceIdentity? identity,
        List<ProbeOutcome> probes, CancellationToken ct)
    {
        if (identity is { EngineEdition: 5 })
        {
            probes.Add(new ProbeOutcome(ProbeNames.Services, OutcomeClass.NotApplicable,
                "Azure SQL Database has no sys.dm_server_services; IFI cannot be configured there."));
            return [];
        }
        var permission = identity is { MajorVersion: >= 16 } ? "VIEW SERVER SECURITY STATE" : "VIEW SERVER STATE";
        try
        {
            var hasIfiColumn = await connection.ExecuteScalarAsync<int>(
                Command(SqlScripts.ServicesIfiColumn, options.CommandTimeoutSeconds, ct)) > 0;
            var rows = await ReadServicesAsync(connection, hasIfiColumn ? SqlScripts.Services : SqlScripts.ServicesLegacy, ct);
            probes.Add(hasIfiColumn
                ? new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)
                : BuildTooOld(identity));
            return ToServices(rows, identity);
        }
        catch (SqlException e) when (e.Number == 207)
        {
            // The column guard said yes but the select disagreed: trust the error, fall back to the old shape.
            try
            {
                var rows = await ReadServicesAsync(connection, SqlScripts.ServicesLegacy, ct);
                probes.Add(BuildTooOld(identity));
                return ToServices(rows, identity);
            }
            catch (Exception inner)
            {
                probes.Add(FailureClassifier.Classify(ProbeNames.Services, inner, permission));
                return [];
            }
        }
        catch (Exception e)
        {
            probes.Add(FailureClassifier.Classify(ProbeNames.Services, e, permission));
            return [];
        }
    }

    async Task<List<ServiceRow>> ReadServicesAsync(SqlConnection connection, string script, CancellationToken ct) =>
        (await connection.QueryAsync<ServiceRow>(Command(script, options.CommandTimeoutSeconds, ct))).AsList();

    static ProbeOutcome BuildTooOld(InstanceIdentity? identity) => new(ProbeNames.Services, OutcomeClass.BuildTooOld,
        $"Build {identity?.ProductVersion ?? "?"} has no instant_file_initialization_enabled column " +
        "(it arrived in 2012 SP4, 2014 SP3 and 2016 SP1): IFI state unknown. Patch the instance to read it.");

    static IReadOnlyList<ServiceInfo> ToServices(List<ServiceRow> rows, InstanceIdentity? identity)
    {
        // The engine row is the one running as the process we are connected to.
        var engineIndex = identity?.ProcessId is { } pid ? rows.FindIndex(r => r.process_id == pid) : -1;
        if (engineIndex < 0) engineIndex = rows.FindIndex(r => r.servicename.StartsWith("SQL Server (", StringComparison.Ordinal));
        return rows.Select((r, i) => new ServiceInfo
        {
            ServiceName = r.servicename,
            StartupTypeDesc = r.startup_type_desc,
            StatusDesc = r.status_desc,
            ProcessId = r.process_id,
            LastStartupTime = r.last_startup_time,
            ServiceAccount = r.service_account,
            IsClustered = r.is_clustered,
            InstantFileInitializationEnabled = r.instant_file_initialization_enabled,
            IsEngine = i == engineIndex,
        }).ToList();
    }
}

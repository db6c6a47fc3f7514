using Dapper;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>sys.dm_server_services with a column-exists guard for the IFI column; the engine row by process id.</summary>
internal static class ServicesProbe
{
    public static async Task<IReadOnlyList<ServiceInfo>> RunAsync(ProbeContext context)
    {
        if (context.SkipOnAzurePaas(ProbeNames.Services)) return [];
        var permission = context.PermissionFor(ProbeNames.Services);
        try
        {
            var hasIfiColumn = await context.Connection.ExecuteScalarAsync<int>(context.Command(SqlScripts.ServicesIfiColumn)) > 0;
            var rows = await ReadAsync(context, hasIfiColumn ? SqlScripts.Services : SqlScripts.ServicesLegacy);
            context.Add(hasIfiColumn ? new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok) : BuildTooOld(context.Identity));
            return ToServices(rows, context.Identity);
        }
        catch (SqlException e) when (e.Number == 207)
        {
            // The column guard said yes but the select disagreed: trust the error, fall back to the old shape.
            return await context.RunAsync<IReadOnlyList<ServiceInfo>>(ProbeNames.Services, [], async () =>
            {
                var rows = await ReadAsync(context, SqlScripts.ServicesLegacy);
                context.Add(BuildTooOld(context.Identity));
                return ToServices(rows, context.Identity);
            });
        }
        catch (Exception e)
        {
            context.Add(FailureClassifier.Classify(ProbeNames.Services, e, permission, context.Login));
            return [];
        }
    }

    static async Task<List<ServiceRow>> ReadAsync(ProbeContext context, string script) =>
        (await context.Connection.QueryAsync<ServiceRow>(context.Command(script))).AsList();

    static ProbeOutcome BuildTooOld(InstanceIdentity? identity) => new(ProbeNames.Services, OutcomeClass.BuildTooOld,
        $"Build {identity?.ProductVersion ?? "?"} has no instant_file_initialization_enabled column " +
        "(it arrived in 2012 SP4, 2014 SP3 and 2016 SP1): the services were read without it, and IFI comes from the " +
        "start-up error-log line where the build writes one (2014 SP2, 2016 RTM).");

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

using Dapper;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Probes;

/// <summary>SERVERPROPERTY values, the host platform (2017+) and the server's clock.</summary>
internal static class IdentityProbe
{
    public static async Task<InstanceIdentity?> RunAsync(ProbeContext context)
    {
        var identity = await context.RunAsync<InstanceIdentity?>(ProbeNames.Identity, null, async () =>
        {
            var row = await context.Connection.QuerySingleAsync<IdentityRow>(context.Command(SqlScripts.Identity));
            context.Ok(ProbeNames.Identity);
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
        });
        if (identity is not { MajorVersion: >= 14 }) return identity;

        return await context.RunAsync(ProbeNames.HostInfo, identity, async () =>
        {
            var host = await context.Connection.QuerySingleAsync<HostInfoRow>(context.Command(SqlScripts.HostInfo));
            context.Ok(ProbeNames.HostInfo);
            return identity with
            {
                HostPlatform = host.host_platform,
                HostDistribution = host.host_distribution,
                HostRelease = host.host_release,
            };
        });
    }

    /// <summary>Trace flags on globally, or null when they could not be read (or the platform manages them).</summary>
    public static async Task<IReadOnlyList<int>?> ReadGlobalTraceFlagsAsync(ProbeContext context)
    {
        if (context.SkipOnAzurePaas(ProbeNames.TraceFlags)) return null;
        return await context.RunAsync<IReadOnlyList<int>?>(ProbeNames.TraceFlags, null, async () =>
        {
            var flags = (await context.Connection.QueryAsync<TraceStatusRow>(context.Command(SqlScripts.TraceFlags)))
                .Where(r => r.Global == 1 && r.Status == 1).Select(r => r.TraceFlag).ToList();
            var disabling = IfiObservation.DisablingFlagsIn(flags);
            context.Ok(ProbeNames.TraceFlags, disabling.Count > 0
                ? $"Trace flag {string.Join(" and ", disabling)} {(disabling.Count == 1 ? "is" : "are")} on globally: " +
                  "it disables instant file initialization for data files, whatever the service account holds."
                : flags.Count == 0 ? null : $"Global trace flags: {string.Join(", ", flags)}.");
            return flags;
        });
    }

    /// <summary>A failover cluster instance's possible owner nodes, the current owner first; null when not clustered or refused.</summary>
    public static async Task<IReadOnlyList<string>?> ReadClusterNodesAsync(ProbeContext context)
    {
        if (context.Identity is not { IsClustered: true }) return null;
        return await context.RunAsync<IReadOnlyList<string>?>(ProbeNames.ClusterNodes, null, async () =>
        {
            var nodes = (await context.Connection.QueryAsync<string>(context.Command(SqlScripts.ClusterNodes))).ToList();
            context.Ok(ProbeNames.ClusterNodes, $"Failover cluster instance; possible owner nodes: {string.Join(", ", nodes)}.");
            return nodes;
        });
    }

    /// <summary>The server's current UTC offset in minutes, or null when it could not be read.</summary>
    public static Task<int?> ReadUtcOffsetAsync(ProbeContext context) =>
        context.RunAsync<int?>(ProbeNames.Clock, null, async () =>
        {
            var now = await context.Connection.ExecuteScalarAsync<DateTimeOffset>(context.Command(SqlScripts.Clock));
            context.Ok(ProbeNames.Clock);
            return (int)now.Offset.TotalMinutes;
        });
}

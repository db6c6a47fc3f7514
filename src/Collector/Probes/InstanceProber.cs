using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;
using Polly;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// Polls one instance: connect, then each probe on its own, each failure classified. Never throws for anything the
/// instance does; the snapshot records it.
/// </summary>
public sealed class InstanceProber(
    ConnectionStringFactory connectionStrings,
    CollectorOptions options,
    GrowthWatermarks watermarks,
    TimeProvider time)
{
    readonly ResiliencePipeline _connectRetry = ConnectRetry.Create(options.ConnectRetries);

    public async Task<InstanceSnapshot> PollAsync(InstanceRegistration instance, CancellationToken cancellationToken)
    {
        var started = time.GetUtcNow();
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(TimeSpan.FromSeconds(options.PollDeadlineSeconds));

        var snapshot = new InstanceSnapshot
        {
            SnapshotId = Guid.NewGuid(),
            InstanceId = instance.Id,
            StartedAt = started,
            FinishedAt = started,
            CollectorName = options.Name,
        };

        SqlConnection? connection = null;
        var connectSpan = CollectorTelemetry.StartConnect();
        try
        {
            var connectionString = connectionStrings.Build(instance);
            connection = await _connectRetry.ExecuteAsync(async ct => await OpenAsync(connectionString, ct), deadline.Token);
            CollectorTelemetry.SetOutcome(connectSpan, OutcomeClass.Ok);
        }
        catch (Exception e) when (!cancellationToken.IsCancellationRequested)
        {
            await CloseAsync(connection);
            var failure = FailureClassifier.Classify(ProbeNames.Connect, e);
            if (KerberosDiagnosis.IsSspiFailure(e))
                failure = failure with { Message = $"{failure.Message} {KerberosDiagnosis.Explain(instance, options.Name)}" };
            CollectorTelemetry.SetOutcome(connectSpan, failure.Outcome);
            return snapshot with { FinishedAt = time.GetUtcNow(), Probes = [failure] };
        }
        finally
        {
            connectSpan?.Dispose();
        }

        try
        {
            var context = new ProbeContext(connection, instance.Id, options.CommandTimeoutSeconds, deadline.Token);
            context.Ok(ProbeNames.Connect);
            return await RunProbesAsync(context, snapshot);
        }
        finally
        {
            await CloseAsync(connection);
        }
    }

    async Task<InstanceSnapshot> RunProbesAsync(ProbeContext context, InstanceSnapshot snapshot)
    {
        context.Identity = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Identity, () => IdentityProbe.RunAsync(context));
        var services = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Services, () => ServicesProbe.RunAsync(context));
        var startupLine = context.Outcomes.Any(o => o.Probe == ProbeNames.Services && o.Outcome == OutcomeClass.BuildTooOld)
            ? await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.ErrorLog, () => ErrorLogProbe.ReadStartupIfiAsync(context))
            : null;
        var clusterNodes = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.ClusterNodes, () => IdentityProbe.ReadClusterNodesAsync(context));
        var availabilityGroups = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.AvailabilityGroups, () => AvailabilityGroupsProbe.RunAsync(context));
        var traceFlags = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.TraceFlags, () => IdentityProbe.ReadGlobalTraceFlagsAsync(context));
        var offset = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Clock, () => IdentityProbe.ReadUtcOffsetAsync(context));
        var files = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Files, () => FilesProbe.ReadFilesAsync(context));
        files = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Volumes, () => FilesProbe.ReadVolumesAsync(context, files));
        var encryption = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Encryption, () => FilesProbe.ReadEncryptionAsync(context));
        var (trace, events) = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.DefaultTrace, () => TraceProbe.RunAsync(context, watermarks, offset));
        var backups = await CollectorTelemetry.TraceProbeAsync(context, ProbeNames.Backups, () => BackupsProbe.RunAsync(context, time.GetUtcNow().UtcDateTime));
        return snapshot with
        {
            FinishedAt = time.GetUtcNow(),
            Identity = context.Identity,
            Services = services,
            ServerUtcOffsetMinutes = offset,
            Files = files,
            Encryption = encryption,
            DefaultTrace = trace,
            GrowthEvents = events,
            Backups = backups,
            StartupIfiLine = startupLine,
            GlobalTraceFlags = traceFlags,
            ClusterNodes = clusterNodes,
            AvailabilityGroups = availabilityGroups,
            Probes = context.Outcomes,
        };
    }

    /// <summary>
    /// Opens a non-pooled connection (<see cref="ConnectionStringFactory"/>) on a thread-pool thread, as SqlClient's
    /// pooled OpenAsync does for a new connection: its non-pooled OpenAsync would queue every open behind
    /// Environment.ProcessorCount slots, so one hanging instance would stall the fleet's connects. The collector's
    /// MaxConcurrency bounds the opens, and <see cref="Scheduling.CollectorService"/> reserves the threads. Returns only
    /// an open connection; one the caller stopped waiting for is disposed when its open ends.
    /// </summary>
    static async Task<SqlConnection> OpenAsync(string connectionString, CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString);
        var open = Task.Run(connection.Open, CancellationToken.None);
        try
        {
            await open.WaitAsync(ct);
            return connection;
        }
        catch (OperationCanceledException) when (!open.IsCompleted)
        {
            _ = open.ContinueWith(_ => connection.Dispose(), CancellationToken.None,
                TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            throw;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    /// <summary>Closes the physical connection: it is not pooled, so no session is left on the instance between polls.</summary>
    static async Task CloseAsync(SqlConnection? connection)
    {
        if (connection is null) return;
        await connection.DisposeAsync();
    }
}

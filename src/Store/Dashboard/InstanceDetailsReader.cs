using Dapper;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Compliance.Timeline;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Store;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Dashboard;

/// <summary>Everything the instance page shows, read on demand for that one instance.</summary>
public sealed class InstanceDetailsReader(
    IFleetAssessments assessments,
    FactsReader facts,
    FleetReader queries,
    IDbConnectionFactory connections,
    TimeProvider time) : IInstanceDetails
{
    public async Task<InstanceDetail?> GetAsync(long instanceId, GrowthWindow growthWindow, CancellationToken ct)
    {
        var fleet = await assessments.GetAsync(ct);
        var assessment = fleet.Find(instanceId);
        if (assessment is null) return null;

        var now = time.GetUtcNow();
        var events = new List<GrowthEventFacts>();
        // Every kept event: retention has already deleted the older ones.
        await foreach (var (_, batch) in facts.GrowthEventsByInstanceAsync(growthWindow.Since(now) ?? DateTimeOffset.MinValue, [instanceId], ct))
            events.AddRange(batch);
        var observations = (await facts.ObservationsAsync([instanceId], ct))[instanceId].ToList();
        var set = new InstanceFactSet
        {
            Instance = assessment.Facts,
            Files = (await facts.FilesAsync([instanceId], ct))[instanceId].ToList(),
            Encryption = (await facts.EncryptionAsync([instanceId], ct))[instanceId].ToList(),
            GrowthEvents = events,
            History = observations,
        };
        var (services, probes, trace) = await LatestPollAsync(instanceId, ct);
        return new InstanceDetail
        {
            Assessment = assessment,
            Services = services,
            Files = EffectiveIfi.ForFiles(set),
            Growth = GrowthHistory.Of(growthWindow, now, GrowthEventAssessor.AssessAll(set)),
            Timeline = TimelineBuilder.Build(instanceId, observations),
            Doubts = await DoubtsAsync(instanceId, ct),
            Polls = await queries.RecentPollsAsync(instanceId, 20, ct),
            LastProbes = probes,
            DefaultTrace = trace,
            AvailabilityGroups = assessment.Facts.AvailabilityGroups.Count == 0 ? []
                : AvailabilityGroupSummary.Of(fleet.Instances)
                    .Where(g => assessment.Facts.AvailabilityGroups.Any(own => own.GroupId == g.GroupId)).ToList(),
        };
    }

    async Task<IReadOnlyDictionary<(Guid, TimelineChangeKind), string>> DoubtsAsync(long instanceId, CancellationToken ct)
    {
        const string sql = """
            SELECT p.snapshot_id AS SnapshotId, c.field AS Field, c.doubt AS Doubt
            FROM ifi_changes c JOIN polls p ON p.id = c.poll_id
            WHERE c.instance_id = @instanceId AND c.doubt IS NOT NULL;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<DoubtRow>(new CommandDefinition(sql, new { instanceId }, cancellationToken: ct));
        return rows.Where(r => KindOf(r.Field) is not null)
            .ToDictionary(r => (Guid.Parse(r.SnapshotId), KindOf(r.Field)!.Value), r => r.Doubt);
    }

    /// <summary>The timeline's kind of an <c>ifi_changes</c> field .</summary>
    static TimelineChangeKind? KindOf(string field) => field switch
    {
        EngineChange.IfiEnabled => TimelineChangeKind.IfiFlag,
        EngineChange.ServiceAccount => TimelineChangeKind.ServiceAccount,
        EngineChange.LastStartupTime => TimelineChangeKind.ServiceStart,
        _ => null,
    };

    sealed class DoubtRow
    {
        public string SnapshotId { get; init; } = "";
        public string Field { get; init; } = "";
        public string Doubt { get; init; } = "";
    }

    async Task<(IReadOnlyList<ServiceInfo> Services, IReadOnlyList<ProbeOutcome> Probes, string? Trace)> LatestPollAsync(
        long instanceId, CancellationToken ct)
    {
        const string stateSql = """
            SELECT last_poll_id AS LastPollId, last_good_poll_id AS LastGoodPollId, default_trace AS DefaultTrace
            FROM instance_state WHERE instance_id = @instanceId;
            """;
        const string servicesSql = """
            SELECT service_name AS ServiceName, service_account AS ServiceAccount, status_desc AS StatusDesc,
                startup_type_desc AS StartupTypeDesc, process_id AS ProcessId, last_startup_time AS LastStartupTime,
                is_clustered AS IsClustered, ifi_enabled AS Ifi, is_engine AS IsEngine
            FROM service_snapshots WHERE poll_id = @pollId ORDER BY is_engine DESC, service_name;
            """;
        const string probesSql = """
            SELECT probe AS Probe, outcome AS Outcome, message AS Message, sql_error_number AS SqlErrorNumber
            FROM probe_outcomes WHERE poll_id = @pollId ORDER BY id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var state = await connection.QuerySingleOrDefaultAsync<StateRow>(new CommandDefinition(stateSql, new { instanceId }, cancellationToken: ct));
        if (state is null) return ([], [], null);
        var services = state.LastGoodPollId is { } good
            ? await connection.QueryAsync<ServiceRow>(new CommandDefinition(servicesSql, new { pollId = good }, cancellationToken: ct))
            : [];
        var probes = await connection.QueryAsync<ProbeRow>(new CommandDefinition(probesSql, new { pollId = state.LastPollId }, cancellationToken: ct));
        return (services.Select(s => s.ToService()).ToList(),
            probes.Select(p => new ProbeOutcome(p.Probe, Enum.Parse<OutcomeClass>(p.Outcome), p.Message, p.SqlErrorNumber is { } n ? (int)n : null)).ToList(),
            state.DefaultTrace);
    }

    sealed class StateRow
    {
        public long LastPollId { get; init; }
        public long? LastGoodPollId { get; init; }
        public string? DefaultTrace { get; init; }
    }

    sealed class ServiceRow
    {
        public string ServiceName { get; init; } = "";
        public string ServiceAccount { get; init; } = "";
        public string? StatusDesc { get; init; }
        public string? StartupTypeDesc { get; init; }
        public long ProcessId { get; init; }
        public DateTimeOffset? LastStartupTime { get; init; }
        public string? IsClustered { get; init; }
        public string? Ifi { get; init; }
        public long IsEngine { get; init; }

        public ServiceInfo ToService() => new()
        {
            ServiceName = ServiceName,
            ServiceAccount = ServiceAccount,
            StatusDesc = StatusDesc,
            StartupTypeDesc = StartupTypeDesc,
            ProcessId = (int)ProcessId,
            LastStartupTime = LastStartupTime,
            IsClustered = IsClustered,
            InstantFileInitializationEnabled = Ifi,
            IsEngine = IsEngine != 0,
        };
    }

    sealed class ProbeRow
    {
        public string Probe { get; init; } = "";
        public string Outcome { get; init; } = "";
        public string? Message { get; init; }
        public long? SqlErrorNumber { get; init; }
    }
}

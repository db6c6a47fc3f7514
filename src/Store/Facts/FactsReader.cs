using System.Runtime.CompilerServices;
using Dapper;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Store;
using IfiDashboard.Store.Dashboard;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Store.Facts;

/// <summary>
/// Reads what the compliance engine needs from the store. Growth events are streamed instance by instance, so a
/// fleet with a million events is never held in memory at once.
/// </summary>
public sealed class FactsReader(IDbConnectionFactory connections)
{
    /// <summary>
    /// Every active instance with its state, in one read: the registration, the list's row and the engine's facts come
    /// from the same row of <c>instances LEFT JOIN instance_state</c>, so they cannot disagree (three reads could see a
    /// registration that one of them missed).
    /// </summary>
    internal async Task<IReadOnlyList<ActiveInstance>> ActiveInstancesAsync(CancellationToken ct)
    {
        // Three column groups, each starting with its Id column: Dapper splits the row there into three objects.
        const string sql = $"""
            SELECT {InstanceRow.Columns},
                {FleetReader.StateColumns},
                i.id AS Id, s.engine_edition AS EngineEdition,
                s.server_name AS ServerName, s.engine_last_startup_time AS EngineLastStartupTime,
                s.evidence_since AS EvidenceSince, s.is_clustered AS IsClustered, s.cluster_nodes AS ClusterNodes,
                s.polls_stored AS PollsStored,
                (SELECT ss.ifi_enabled FROM service_snapshots ss
                 WHERE ss.poll_id = s.last_good_poll_id AND ss.is_engine = 1) AS EngineDmvIfiEnabled,
                (SELECT MIN(po.outcome) FROM probe_outcomes po
                 WHERE po.poll_id = s.last_good_poll_id AND po.probe = @availabilityGroupsProbe AND po.outcome <> 'Ok') AS AvailabilityGroupsFailure
            FROM instances i
            LEFT JOIN instance_state s ON s.instance_id = i.id
            WHERE i.retired_at IS NULL
            ORDER BY lower(i.name), i.id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = await connection.QueryAsync<InstanceRow, FleetReader.StateRow, InstanceFactRow, ActiveInstance>(
            new CommandDefinition(sql, new { notPolledYet = FleetReader.NotPolledYet, availabilityGroupsProbe = ProbeNames.AvailabilityGroups }, cancellationToken: ct),
            (registration, state, facts) => new ActiveInstance(registration.ToRegistration(), state.ToRecord(), facts));
        return rows.ToList();
    }

    // Every read here is ordered: the engine keeps the order of files (per-database restore risk) and of polls taken at
    // the same moment, and PostgreSQL returns rows in the order its plan makes them, which differs between reading
    // every instance and reading a few by id.

    /// <param name="instanceIds">Null for every instance.</param>
    public async Task<ILookup<long, DatabaseFileFacts>> FilesAsync(IReadOnlyCollection<long>? instanceIds, CancellationToken ct)
    {
        const string sql = """
            SELECT instance_id AS InstanceId, database_id AS DatabaseId, database_name AS DatabaseName,
                logical_name AS LogicalName, physical_name AS PhysicalName, type AS Type, size_pages AS SizePages,
                growth AS Growth, is_percent_growth AS IsPercentGrowth,
                volume_mount_point AS VolumeMountPoint, volume_total_bytes AS VolumeTotalBytes, volume_available_bytes AS VolumeAvailableBytes
            FROM database_files
            """;
        await using var connection = await connections.OpenAsync(ct);
        // Read column by column rather than through a row object per file: at fleet scale these are 100,000 rows
        // alive through the whole assessment, and their names repeat (see SharedStrings).
        var names = new SharedStrings();
        var files = new List<(long InstanceId, DatabaseFileFacts File)>();
        foreach (var (filter, parameters) in InstanceFilters(instanceIds, null))
        {
            await using var reader = await connection.ExecuteReaderAsync(
                new CommandDefinition($"{sql}{Where(filter)} ORDER BY instance_id, database_id, file_id;", parameters, cancellationToken: ct));
            while (await reader.ReadAsync(ct))
            {
                files.Add((reader.GetInt64(0), new DatabaseFileFacts
                {
                    DatabaseId = (int)reader.GetInt64(1),
                    DatabaseName = names.Share(reader.GetString(2)),
                    LogicalName = names.Share(reader.GetString(3)),
                    PhysicalPath = names.Share(reader.GetString(4)),
                    Type = (FileType)reader.GetInt64(5),
                    SizePages = reader.GetInt64(6),
                    Growth = reader.GetInt64(7),
                    IsPercentGrowth = reader.GetInt64(8) != 0,
                    Volume = reader.IsDBNull(9) ? null
                        : new FileVolumeFacts(names.Share(reader.GetString(9)), reader.GetInt64(10), reader.GetInt64(11)),
                }));
            }
        }
        return files.ToLookup(f => f.InstanceId, f => f.File);
    }

    /// <param name="instanceIds">Null for every instance.</param>
    public async Task<ILookup<long, DatabaseEncryptionFacts>> EncryptionAsync(IReadOnlyCollection<long>? instanceIds, CancellationToken ct)
    {
        const string sql = """
            SELECT instance_id AS InstanceId, database_id AS DatabaseId, encryption_state AS EncryptionState
            FROM database_encryption
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = new List<EncryptionFactRow>();
        foreach (var (filter, parameters) in InstanceFilters(instanceIds, null))
            rows.AddRange(await connection.QueryAsync<EncryptionFactRow>(new CommandDefinition(
                $"{sql}{Where(filter)} ORDER BY instance_id, database_id;", parameters, cancellationToken: ct)));
        return rows.ToLookup(r => r.InstanceId, r => new DatabaseEncryptionFacts((int)r.DatabaseId, (int)r.EncryptionState));
    }

    /// <summary>
    /// The polls that matter for "what was IFI when this growth happened": the first and the latest good poll and
    /// every poll that saw a change (the timeline). IFI can only change at a service start, so these bound every run.
    /// </summary>
    /// <param name="instanceIds">Null for every instance.</param>
    public async Task<ILookup<long, PollObservation>> ObservationsAsync(IReadOnlyCollection<long>? instanceIds, CancellationToken ct)
    {
        const string fleet = """
            SELECT p.instance_id AS InstanceId, p.snapshot_id AS SnapshotId, p.finished_at AS PolledAt, p.ifi_state AS IfiState,
                s.service_account AS Account, s.last_startup_time AS Started,
                p.availability_roles AS Roles, p.cluster_owner AS Owner
            FROM polls p
            LEFT JOIN service_snapshots s ON s.poll_id = p.id AND s.is_engine = 1
            WHERE p.id IN (
                SELECT poll_id FROM ifi_changes
                UNION SELECT last_good_poll_id FROM instance_state WHERE last_good_poll_id IS NOT NULL
                UNION SELECT MIN(id) FROM polls WHERE is_good = 1 GROUP BY instance_id)
            ORDER BY p.id;
            """;
        // Some instances' polls are found through their own index entries instead of every poll in the store.
        static string Some(Func<string, string> of) => $"""
            SELECT p.instance_id AS InstanceId, p.snapshot_id AS SnapshotId, p.finished_at AS PolledAt, p.ifi_state AS IfiState,
                s.service_account AS Account, s.last_startup_time AS Started,
                p.availability_roles AS Roles, p.cluster_owner AS Owner
            FROM polls p
            LEFT JOIN service_snapshots s ON s.poll_id = p.id AND s.is_engine = 1
            WHERE {of("p.instance_id")}
              AND p.id IN (
                SELECT poll_id FROM ifi_changes WHERE {of("instance_id")}
                UNION SELECT last_good_poll_id FROM instance_state WHERE {of("instance_id")} AND last_good_poll_id IS NOT NULL
                UNION SELECT MIN(id) FROM polls WHERE is_good = 1 AND {of("instance_id")} GROUP BY instance_id)
            ORDER BY p.id;
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = new List<ObservationRow>();
        foreach (var (filter, parameters) in InstanceFilters(instanceIds, null))
            rows.AddRange(await connection.QueryAsync<ObservationRow>(new CommandDefinition(
                filter is null ? fleet : Some(filter), parameters, cancellationToken: ct)));
        return rows.ToLookup(r => r.InstanceId, r => new PollObservation
        {
            SnapshotId = Guid.Parse(r.SnapshotId),
            PolledAt = r.PolledAt,
            Ifi = Enum.Parse<IfiState>(r.IfiState),
            ServiceAccount = r.Account,
            ServiceStartedAt = r.Started,
            AvailabilityRoles = r.Roles,
            ClusterOwner = r.Owner,
        });
    }

    /// <summary>Each instance's availability groups, as its latest good read of the HADR views found them.</summary>
    /// <param name="instanceIds">Null for every instance.</param>
    public async Task<ILookup<long, AvailabilityGroupInfo>> AvailabilityGroupsAsync(IReadOnlyCollection<long>? instanceIds, CancellationToken ct)
    {
        const string sql = """
            SELECT instance_id AS InstanceId, group_id AS GroupId, group_name AS GroupName, local_role AS LocalRole,
                primary_replica AS PrimaryReplica, is_contained AS IsContained, replicas AS Replicas, listeners AS Listeners
            FROM availability_group_replicas
            """;
        await using var connection = await connections.OpenAsync(ct);
        var rows = new List<AvailabilityGroupRow>();
        foreach (var (filter, parameters) in InstanceFilters(instanceIds, null))
            rows.AddRange(await connection.QueryAsync<AvailabilityGroupRow>(new CommandDefinition(
                $"{sql}{Where(filter)} ORDER BY instance_id, group_name;", parameters, cancellationToken: ct)));
        return rows.ToLookup(r => r.InstanceId, r => new AvailabilityGroupInfo
        {
            GroupId = Guid.Parse(r.GroupId),
            Name = r.GroupName,
            LocalRole = r.LocalRole,
            PrimaryReplica = r.PrimaryReplica,
            IsContained = r.IsContained == 1,
            Replicas = r.Replicas.Split(',', StringSplitOptions.RemoveEmptyEntries),
            Listeners = r.Listeners.Split(',', StringSplitOptions.RemoveEmptyEntries),
        });
    }

    /// <summary>
    /// Growth events since <paramref name="since"/>, grouped by instance, one instance at a time, in the order of the
    /// instances' ids.
    /// </summary>
    /// <param name="instanceIds">Null for every instance.</param>
    public async IAsyncEnumerable<(long InstanceId, List<GrowthEventFacts> Events)> GrowthEventsByInstanceAsync(
        DateTimeOffset since, IReadOnlyCollection<long>? instanceIds, [EnumeratorCancellation] CancellationToken ct)
    {
        const string select = """
            SELECT instance_id AS InstanceId, event_class AS EventClass, database_id AS DatabaseId,
                database_name AS DatabaseName, file_name AS FileName, start_time AS StartTime, duration_us AS DurationUs,
                growth_pages AS GrowthPages
            FROM growth_events
            WHERE start_time >= @since
            """;
        await using var connection = await connections.OpenAsync(ct);
        // A million rows per rebuild: read column by column instead of through a row object each, and share the
        // database and file names (a handful per instance) rather than keep a copy per event.
        var names = new SharedStrings();
        foreach (var (filter, parameters) in InstanceFilters(instanceIds, new { since }))
        {
            // The instances named in the filter, not "@instanceId IS NULL OR ...", which hides them from the planner:
            // the instance page then scanned the whole key index (a million entries) for one instance's events.
            var sql = $"{select}{(filter is null ? "" : " AND " + filter("instance_id"))} ORDER BY instance_id, start_time;";
            await using var reader = await connection.ExecuteReaderAsync(new CommandDefinition(sql, parameters, cancellationToken: ct));
            long? current = null;
            var batch = new List<GrowthEventFacts>();
            while (await reader.ReadAsync(ct))
            {
                var rowInstance = reader.GetInt64(0);
                if (current != rowInstance && batch.Count > 0)
                {
                    yield return (current!.Value, batch);
                    batch = [];
                }
                current = rowInstance;
                batch.Add(new GrowthEventFacts
                {
                    EventClass = (int)reader.GetInt64(1),
                    DatabaseId = (int)reader.GetInt64(2),
                    DatabaseName = names.Share(reader.GetString(3)),
                    LogicalFileName = names.Share(reader.GetString(4)),
                    StartTime = StoreTime.Parse(reader.GetString(5)),
                    DurationMicroseconds = reader.GetInt64(6),
                    GrowthPages = reader.GetInt64(7),
                });
            }
            if (batch.Count > 0) yield return (current!.Value, batch);
        }
    }

    /// <summary>At most this many ids in one query's IN list (SQLite takes 32,766 parameters, PostgreSQL 65,535).</summary>
    const int IdsPerQuery = 500;

    /// <summary>
    /// The queries that read <paramref name="instanceIds"/>: a filter on an id column for each run of at most
    /// <see cref="IdsPerQuery"/> ids in ascending order, the ids as plain parameters (a list parameter is expanded by
    /// Dapper on SQLite but sent as an array to PostgreSQL), with <paramref name="parameters"/> beside them. One query
    /// without a filter when every instance is read.
    /// </summary>
    internal static IEnumerable<(Func<string, string>? Filter, object? Parameters)> InstanceFilters(
        IReadOnlyCollection<long>? instanceIds, object? parameters)
    {
        if (instanceIds is null)
        {
            yield return (null, parameters);
            yield break;
        }
        foreach (var chunk in instanceIds.Order().Chunk(IdsPerQuery))
        {
            var named = new DynamicParameters(parameters);
            for (var i = 0; i < chunk.Length; i++)
                named.Add($"id{i}", chunk[i]);
            var list = string.Join(", ", Enumerable.Range(0, chunk.Length).Select(i => $"@id{i}"));
            yield return (column => $"{column} IN ({list})", named);
        }
    }

    static string Where(Func<string, string>? filter) => filter is null ? "" : " WHERE " + filter("instance_id");
}

using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// The polls an instance's history is made of, as the collector would deliver them: a first good poll before the
/// history starts, then polls spread over the window, each carrying the growth events since the previous one (the
/// collector's watermark), the last one a few minutes ago so the fleet is not stale.
/// </summary>
internal static class SnapshotPlan
{
    const int Polls = 4;
    const string Collector = "dashboard-benchmark";

    /// <summary>
    /// The engine's last start, before any history, the same in every poll: a start time that moved with each poll
    /// (it was the poll's time less 120 days) made every poll a restart, so every replayed snapshot wrote a change row
    /// under the changes feed's store-wide order lock, which a typical poll does not.
    /// </summary>
    static readonly DateTimeOffset EngineStarted = new(2025, 1, 6, 6, 0, 0, TimeSpan.Zero);

    public static IEnumerable<InstanceSnapshot> For(SyntheticInstance instance, long id, DateTimeOffset now, int days, Random random)
    {
        var historyStart = now.AddDays(-days);
        var times = new DateTimeOffset[Polls];
        times[0] = historyStart.AddHours(-1);
        for (var p = 1; p < Polls - 1; p++)
            times[p] = historyStart.AddDays(days * (double)p / (Polls - 1)).AddMinutes(random.Next(60));
        times[^1] = now.AddSeconds(-30 - random.Next(240));

        // An instance whose latest poll failed has no events read since the poll before it.
        var lastRead = instance.LatestFailure is null ? times[^1] : times[^2];
        var events = GrowthEvents(instance, historyStart.AddHours(1), lastRead.AddMinutes(-5), random);
        var next = 0;
        for (var p = 0; p < Polls; p++)
        {
            var batch = new List<GrowthEventInfo>();
            while (next < events.Count && events[next].StartTime < times[p]) batch.Add(events[next++]);
            var failed = p == Polls - 1 ? instance.LatestFailure : null;
            yield return Snapshot(instance, id, times[p], failed, batch);
        }
    }

    /// <summary>The instance's next good poll, finished at <paramref name="finished"/>, with the growths of the five minutes before.</summary>
    public static InstanceSnapshot Next(SyntheticInstance instance, long id, DateTimeOffset finished, Random random)
    {
        var events = GrowthEvents(instance, finished.AddMinutes(-5), finished, random).Take(random.Next(4)).ToList();
        return Snapshot(instance, id, finished, failure: null, events);
    }

    static InstanceSnapshot Snapshot(SyntheticInstance instance, long id, DateTimeOffset finished, OutcomeClass? failure,
        IReadOnlyList<GrowthEventInfo> events)
    {
        var started = finished.AddMilliseconds(-180);
        var snapshot = new InstanceSnapshot
        {
            SnapshotId = Guid.NewGuid(),
            InstanceId = id,
            StartedAt = started,
            FinishedAt = finished,
            CollectorName = Collector,
        };
        if (failure is OutcomeClass.Unreachable or OutcomeClass.LoginFailed or OutcomeClass.TlsError)
            return snapshot with { Probes = [new ProbeOutcome(ProbeNames.Connect, failure.Value, Message(failure.Value))] };

        var ifi = instance.IfiAt(finished);
        var restarted = instance.IfiFlippedAt is { } flipped && finished >= flipped ? flipped : EngineStarted;
        var servicesOutcome = failure ?? (instance.AzureSqlDatabase ? OutcomeClass.NotApplicable
            : instance.Version.HasIfiColumn ? OutcomeClass.Ok : OutcomeClass.BuildTooOld);
        var services = servicesOutcome is OutcomeClass.Ok or OutcomeClass.BuildTooOld ? Services(instance, ifi, restarted) : [];
        return snapshot with
        {
            Identity = Identity(instance),
            Services = services,
            ServerUtcOffsetMinutes = 0,
            Files = instance.Files,
            Encryption = instance.EncryptedDatabases.Select(d => new DatabaseEncryptionInfo(d, 3)).ToList(),
            DefaultTrace = new DefaultTraceState(true, "D:\\MSSQL\\Log\\log_412.trc", events.Count),
            GrowthEvents = events,
            Probes =
            [
                new(ProbeNames.Connect, OutcomeClass.Ok),
                new(ProbeNames.Identity, OutcomeClass.Ok),
                new(ProbeNames.Services, servicesOutcome, servicesOutcome == OutcomeClass.Ok ? null : Message(servicesOutcome)),
                new(ProbeNames.Clock, OutcomeClass.Ok),
                new(ProbeNames.Files, OutcomeClass.Ok),
                new(ProbeNames.Encryption, OutcomeClass.Ok),
                new(ProbeNames.DefaultTrace, OutcomeClass.Ok),
                new(ProbeNames.GrowthEvents, OutcomeClass.Ok),
            ],
        };
    }

    static InstanceIdentity Identity(SyntheticInstance instance) => new()
    {
        ProductVersion = instance.Version.ProductVersion,
        ProductLevel = instance.Version.ProductLevel,
        ProductUpdateLevel = instance.Version.UpdateLevel,
        Edition = instance.AzureSqlDatabase ? "SQL Azure" : "Enterprise Edition (64-bit)",
        EngineEdition = instance.AzureSqlDatabase ? 5 : 3,
        MachineName = instance.Host.Split('.')[0].ToUpperInvariant(),
        ServerName = instance.Host.Split('.')[0].ToUpperInvariant() + (instance.InstanceName is { } n ? "\\" + n : ""),
        InstanceName = instance.InstanceName,
        ProcessId = 4000 + instance.Index % 1000,
        HostPlatform = instance.Linux ? "Linux" : "Windows",
    };

    static List<ServiceInfo> Services(SyntheticInstance instance, bool ifi, DateTimeOffset startedAt)
    {
        var suffix = instance.InstanceName is { } n ? $"({n})" : "(MSSQLSERVER)";
        // Before the restart that changed IFI the engine ran under another account.
        var account = instance.IfiFlippedAt is { } flipped && startedAt < flipped ? "LocalSystem" : instance.ServiceAccount;
        return
        [
            new ServiceInfo
            {
                ServiceName = $"SQL Server {suffix}", ServiceAccount = account, StatusDesc = "Running",
                StartupTypeDesc = "Automatic", ProcessId = 4000 + instance.Index % 1000, LastStartupTime = startedAt,
                IsClustered = "N", InstantFileInitializationEnabled = instance.Version.HasIfiColumn ? (ifi ? "Y" : "N") : null,
                IsEngine = true,
            },
            new ServiceInfo
            {
                ServiceName = $"SQL Server Agent {suffix}", ServiceAccount = account, StatusDesc = "Running",
                StartupTypeDesc = "Automatic", ProcessId = 5000 + instance.Index % 1000, LastStartupTime = startedAt.AddSeconds(20),
                IsClustered = "N", InstantFileInitializationEnabled = instance.Version.HasIfiColumn ? "N" : null,
            },
        ];
    }

    /// <summary>
    /// Mostly data-file autogrowths; durations follow what zeroing costs: milliseconds with effective IFI, the
    /// increment over the instance's zeroing rate without it (and for log files, which are always zeroed).
    /// </summary>
    static List<GrowthEventInfo> GrowthEvents(SyntheticInstance instance, DateTimeOffset from, DateTimeOffset to, Random random)
    {
        var span = (long)(to - from).TotalSeconds;
        var seconds = new long[instance.EventCount];
        for (var i = 0; i < seconds.Length; i++) seconds[i] = random.NextInt64(span);
        Array.Sort(seconds);

        var dataFiles = instance.Files.Where(f => f.IsData).ToList();
        var logFiles = instance.Files.Where(f => f.IsLog).ToList();
        var events = new List<GrowthEventInfo>(seconds.Length);
        for (var i = 0; i < seconds.Length; i++)
        {
            // A microsecond apart at least: the store's key includes the start time.
            var start = from.AddSeconds(seconds[i]).AddTicks(i * 10L);
            var roll = random.NextDouble();
            var eventClass = roll < 0.85 ? 92 : roll < 0.98 ? 93 : roll < 0.99 ? 94 : 95;
            var file = eventClass is 92 or 94 ? dataFiles[random.Next(dataFiles.Count)] : logFiles[random.Next(logFiles.Count)];
            var pages = file.IsPercentGrowth ? Math.Max(128, file.SizePages / 10) : file.Growth;
            var micros = Duration(instance, file, eventClass, pages, start, random);
            events.Add(new GrowthEventInfo
            {
                EventClass = eventClass, DatabaseId = file.DatabaseId, DatabaseName = file.DatabaseName,
                FileName = file.LogicalName, StartTime = start, EndTime = start.AddTicks(micros * 10), DurationMicroseconds = micros,
                GrowthPages = eventClass is 94 or 95 ? -pages : pages,
            });
        }
        return events;
    }

    static long Duration(SyntheticInstance instance, DatabaseFileInfo file, int eventClass, long pages, DateTimeOffset at, Random random)
    {
        if (eventClass is 94 or 95) return 50_000 + random.Next(450_000);
        var zeroed = eventClass == 93
            ? !(instance.Version.Major >= 16 && pages <= 64 * 128)
            : !(instance.IfiAt(at) && !instance.EncryptedDatabases.Contains(file.DatabaseId));
        if (!zeroed) return 1_000 + random.Next(40_000);
        var seconds = pages * 8192.0 / instance.ZeroingBytesPerSecond * (0.8 + 0.5 * random.NextDouble());
        return (long)(seconds * 1_000_000);
    }

    static string Message(OutcomeClass outcome) => outcome switch
    {
        OutcomeClass.Unreachable => "A network-related error occurred (host not found).",
        OutcomeClass.LoginFailed => "Login failed for user 'ifi_collector'.",
        OutcomeClass.TlsError => "The certificate chain was issued by an authority that is not trusted.",
        OutcomeClass.PermissionMissing => "VIEW SERVER STATE permission was denied.",
        OutcomeClass.BuildTooOld => "sys.dm_server_services has no instant_file_initialization_enabled column on this build.",
        OutcomeClass.NotApplicable => "Azure SQL Database: IFI is managed by the platform.",
        _ => outcome.ToString(),
    };
}

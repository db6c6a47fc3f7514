using System.Globalization;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>The command line: how big a fleet, where its store lives, and how many requests to time.</summary>
internal sealed record BenchmarkOptions
{
    public int Instances { get; init; } = 10_000;
    public int Events { get; init; } = 1_000_000;
    public int Days { get; init; } = 90;
    /// <summary>An existing store is reused as it is, so a re-run on a quieter machine skips the minutes of seeding.</summary>
    public string? Store { get; init; }
    public bool Rebuild { get; init; }
    /// <summary>An Npgsql connection string naming the benchmark's own database: seed and serve from PostgreSQL instead of SQLite.</summary>
    public string? Postgres { get; init; }
    /// <summary>Instances whose polls are written at once while seeding; SQLite has one writer at a time anyway.</summary>
    public int SeedWriters { get; init; } = 1;
    bool SeedWritersGiven { get; init; }
    /// <summary>PostgreSQL: seed this many instances through the real path, then copy them in SQL up to <see cref="Instances"/> (<see cref="PostgresBlockCopy"/>).</summary>
    public int SeedBlock { get; init; }
    /// <summary>Instead of the pages: this many clients replay snapshots through the collectors' ingestion API for <see cref="IngestSeconds"/>.</summary>
    public int IngestClients { get; init; }
    public int IngestSeconds { get; init; } = 60;
    /// <summary>
    /// Seconds of the replay before its rate and its steady CPU are counted: the snapshot path is compiled (and the tiered
    /// compiler re-compiles it) while it first runs, a cost paid once per server start.
    /// </summary>
    public int IngestWarmupSeconds { get; init; } = 10;
    /// <summary>Snapshots each replay client has in flight: 1 is a collector's outbox, which delivers one at a time.</summary>
    public int IngestConcurrency { get; init; } = 1;
    /// <summary>Each replayed lease completed by a request of its own, as before snapshots carried their next poll time.</summary>
    public bool IngestSeparateCompletion { get; init; }
    /// <summary>Instead of the pages: this many standalone collector processes poll <see cref="CollectorFleet"/> simulated instances.</summary>
    public int StandaloneCollectors { get; init; }
    public int Requests { get; init; } = 50;
    public int Warmup { get; init; } = 5;
    /// <summary>How long the collector-off server idles after the pages: long enough for two timed re-assessments.</summary>
    public int IdleSeconds { get; init; } = 130;
    public int Seed { get; init; } = 20260503;
    /// <summary>The server build to run: by default the configuration this benchmark was built in (bin/Release/net10.0).</summary>
    public string Configuration { get; init; } =
        new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar)).Parent?.Name ?? "Release";
    /// <summary>
    /// Runs a second server with the embedded collector polling a simulated fleet of this many instances, one per
    /// registration (those beyond it are retired in the run's copy of the store).
    /// </summary>
    public int CollectorFleet { get; init; }
    public int CollectorSeconds { get; init; } = 60;
    /// <summary>Skips the collector-off server run, for repeating the collector run alone (e.g. with --server-env).</summary>
    public bool CollectorOnly { get; init; }
    /// <summary>Environment for the server process, e.g. DOTNET_gcServer=0, to see what a runtime setting changes.</summary>
    public IReadOnlyDictionary<string, string> ServerEnvironment { get; init; } = new Dictionary<string, string>();
    /// <summary>Also times and sizes the assessment in this process (<see cref="AssessmentProbe"/>).</summary>
    public bool ProbeAssessment { get; init; }
    /// <summary>A fixed clock for the probe's builds, so that two builds of the code can be compared by fingerprint.</summary>
    public DateTimeOffset? ProbeClock { get; init; }
    /// <summary>Only the probe: no server, no collector (a fingerprint comparison needs nothing else).</summary>
    public bool ProbeOnly { get; init; }

    /// <summary>
    /// Runs <see cref="ChurnRun"/> instead of the page benchmark: this many quiet minutes, then as many with
    /// <see cref="ChurnPercent"/> of the instances getting a new poll each minute, the server's CPU read over each.
    /// </summary>
    public int ChurnMinutes { get; init; }
    public double ChurnPercent { get; init; } = 1;
    /// <summary>Time after the first assessment before the quiet minutes start (the day's first journal and retention).</summary>
    public int ChurnSettleSeconds { get; init; } = 90;

    /// <summary>Runs the soak (<see cref="Soak.SoakRun"/>) for this many minutes instead of the benchmark.</summary>
    public int SoakMinutes { get; init; }
    public int SoakLockEveryMinutes { get; init; } = 10;
    public int SoakLockSeconds { get; init; } = 30;
    /// <summary>Minutes before memory must stay flat; by default 10, or a third of a shorter soak.</summary>
    public int? SoakWarmupMinutes { get; init; }
    /// <summary>Where the soak keeps its store, logs and mails; a new temporary directory by default.</summary>
    public string? SoakDirectory { get; init; }
    /// <summary>
    /// Interactive sessions instead of the page run: this many Chromium tabs holding the overview or the grid open on
    /// their circuits (<see cref="SessionsRun"/>); 0 runs the page benchmark.
    /// </summary>
    public int Sessions { get; init; }
    /// <summary>Changes landed through the API while the sessions are open, each timed to every open overview.</summary>
    public int Landings { get; init; } = 10;
    /// <summary>Sorts, and as many filter changes, timed in one open grid while the other sessions stay open.</summary>
    public int GridActions { get; init; } = 50;
    /// <summary>Where dotnet-counters and dotnet-gcdump are, when they are on neither PATH nor ~/.dotnet/tools.</summary>
    public string? DotnetTools { get; init; }

    public string StorePath => Path.GetFullPath(Store ?? Path.Combine(Path.GetTempPath(),
        $"ifi-dashboard-bench-{Instances}-{Events}-{Days}d.db"));

    public const string Usage = """
        usage: Dashboard.Benchmarks [--instances N=10000] [--events N=1000000] [--days N=90] [--store PATH] [--rebuild]
                                    [--postgres CONNSTR [--seed-writers N=4] [--seed-block N]] [--ingest-clients N [--ingest-seconds N=60] [--ingest-warmup-seconds N=10] [--ingest-concurrency N=1] [--ingest-separate-completion]]
                                    [--standalone-collectors N --collector-fleet N [--ingest-seconds N=60]]
                                    [--requests N=50] [--warmup N=5] [--idle-seconds N=130] [--seed N] [--configuration Release|Debug]
                                    [--collector-fleet N=0] [--collector-seconds N=60] [--collector-only] [--server-env NAME=VALUE]...
                                    [--probe-assessment] [--probe-clock TIME] [--probe-only]
                                    [--sessions N [--landings N=10] [--grid-actions N=50] [--dotnet-tools DIR]]
                                    [--churn-minutes N [--churn-percent P=1] [--churn-settle-seconds N=90]]
               Dashboard.Benchmarks --soak-minutes N [--soak-lock-every N=10] [--soak-lock-seconds N=30]
                                    [--soak-warmup N] [--soak-dir PATH] [--server-env NAME=VALUE]...
          --store PATH          reuse this SQLite store when it exists, otherwise build it there
                                (default: the temp directory, named by instances, events and days)
          --rebuild             delete the store first and build it again
          --postgres CONNSTR    seed and serve from this PostgreSQL database instead (its own, e.g.
                                Host=127.0.0.1;Port=5432;Username=ifi;Database=ifi_bench_100k): made and seeded when it
                                does not exist, reused when a seeding finished (the page run and --ingest-clients only)
          --seed-block N        PostgreSQL: seed N instances (and their share of the events) through the real path in a
                                database of their own (<database>_blockN, reused), then copy them in SQL, ids shifted and
                                names renumbered, up to --instances (the bulk path, docs/benchmarks.md)
          --seed-writers N      instances whose polls are stored at once while seeding (default 4 on PostgreSQL, 1 on SQLite)
          --ingest-clients N    instead of the pages: N clients, each a collector with its own key, lease due instances
                                and deliver a next poll of each through POST /api/v1/collector/snapshots; snapshots/s
          --ingest-seconds N    how long the replay delivers, after its warm-up (default 60)
          --ingest-warmup-seconds N  the replay's first seconds, delivered but not counted in its rate or its steady
                                CPU per snapshot: the snapshot path is compiled while it first runs (default 10)
          --standalone-collectors N  instead of the pages: N collector processes (src/Collector) poll --collector-fleet
                                simulated instances registered in a new store beside the seeded one; polls stored/s
          --ingest-concurrency N  snapshots each client has in flight (default 1, as a collector's outbox sends them)
          --ingest-separate-completion  complete each replayed lease with a request of its own, not with its snapshot
          --collector-fleet N   also measure RSS with the embedded collector polling N simulated instances
          --idle-seconds N      after the pages, let the collector-off server idle N s (timed re-assessments) and
                                read its RSS again; 0 skips it
          --collector-only      skip the run without the collector (repeat the collector run alone)
          --probe-assessment    also build the assessment in this process: time and bytes allocated and kept
          --probe-clock TIME    the probe's builds see this fixed time and print a fingerprint of the assessment
          --probe-only          run the probe alone (no server, no collector)
          --server-env N=V      set an environment variable for the server process (repeatable), e.g. DOTNET_gcServer=0
          --soak-minutes N      the soak instead: the demo fleet with faults switched every minute, the store's write
                                lock held --soak-lock-seconds every --soak-lock-every minutes, alerts by SMTP
          --soak-warmup N       minutes after which memory must stay flat (default 10, or a third of a shorter soak)
          --soak-dir PATH       keep the soak's store, server log and mails there (default: a new temp directory)
          --sessions N          instead of the pages: N headless Chromium tabs on the overview or the grid (one in five),
                                memory per idle circuit, assessment landing to every open overview, grid sort/filter
          --landings N          changes landed through the API and timed to every open overview
          --grid-actions N      sorts, and as many filter changes, timed in one open grid
          --churn-minutes N     instead of the pages: the collector-off server's CPU over N quiet minutes, then over N
                                minutes in which P % of the instances get a new poll each minute
          --dotnet-tools DIR    where dotnet-counters and dotnet-gcdump are (default: PATH, then ~/.dotnet/tools)
        """;

    public static BenchmarkOptions Parse(string[] args)
    {
        var options = new BenchmarkOptions();
        for (var i = 0; i < args.Length; i++)
        {
            string Value() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value.");
            int Number() => int.Parse(Value(), NumberStyles.Integer, CultureInfo.InvariantCulture);
            options = args[i] switch
            {
                "--instances" => options with { Instances = Positive(Number(), "--instances") },
                "--events" => options with { Events = Math.Max(0, Number()) },
                "--days" => options with { Days = Positive(Number(), "--days") },
                "--store" => options with { Store = Value() },
                "--rebuild" => options with { Rebuild = true },
                "--postgres" => options with { Postgres = Value(), SeedWriters = options.SeedWritersGiven ? options.SeedWriters : 4 },
                "--seed-block" => options with { SeedBlock = Positive(Number(), "--seed-block") },
                "--seed-writers" => options with { SeedWriters = Positive(Number(), "--seed-writers"), SeedWritersGiven = true },
                "--ingest-clients" => options with { IngestClients = Positive(Number(), "--ingest-clients") },
                "--ingest-seconds" => options with { IngestSeconds = Positive(Number(), "--ingest-seconds") },
                "--ingest-warmup-seconds" => options with { IngestWarmupSeconds = Math.Max(0, Number()) },
                "--standalone-collectors" => options with { StandaloneCollectors = Positive(Number(), "--standalone-collectors") },
                "--ingest-concurrency" => options with { IngestConcurrency = Positive(Number(), "--ingest-concurrency") },
                "--ingest-separate-completion" => options with { IngestSeparateCompletion = true },
                "--probe-assessment" => options with { ProbeAssessment = true },
                "--probe-clock" => options with
                {
                    ProbeAssessment = true,
                    ProbeClock = DateTimeOffset.Parse(Value(), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal),
                },
                "--probe-only" => options with { ProbeAssessment = true, ProbeOnly = true },
                "--requests" => options with { Requests = Positive(Number(), "--requests") },
                "--idle-seconds" => options with { IdleSeconds = Math.Max(0, Number()) },
                "--warmup" => options with { Warmup = Math.Max(0, Number()) },
                "--seed" => options with { Seed = Number() },
                "--configuration" => options with { Configuration = Value() },
                "--collector-fleet" => options with { CollectorFleet = Math.Max(0, Number()) },
                "--collector-only" => options with { CollectorOnly = true },
                "--collector-seconds" => options with { CollectorSeconds = Positive(Number(), "--collector-seconds") },
                "--churn-minutes" => options with { ChurnMinutes = Positive(Number(), "--churn-minutes") },
                "--churn-percent" => options with { ChurnPercent = double.Parse(Value(), CultureInfo.InvariantCulture) },
                "--churn-settle-seconds" => options with { ChurnSettleSeconds = Math.Max(0, Number()) },
                "--soak-minutes" => options with { SoakMinutes = Positive(Number(), "--soak-minutes") },
                "--soak-lock-every" => options with { SoakLockEveryMinutes = Positive(Number(), "--soak-lock-every") },
                "--soak-lock-seconds" => options with { SoakLockSeconds = Positive(Number(), "--soak-lock-seconds") },
                "--soak-warmup" => options with { SoakWarmupMinutes = Math.Max(0, Number()) },
                "--soak-dir" => options with { SoakDirectory = Value() },
                "--sessions" => options with { Sessions = Positive(Number(), "--sessions") },
                "--landings" => options with { Landings = Positive(Number(), "--landings") },
                "--grid-actions" => options with { GridActions = Positive(Number(), "--grid-actions") },
                "--dotnet-tools" => options with { DotnetTools = Value() },
                "--server-env" => options with { ServerEnvironment = With(options.ServerEnvironment, Value()) },
                _ => throw new ArgumentException($"Unknown option {args[i]}."),
            };
        }
        if (options.StandaloneCollectors > 0 && options.CollectorFleet == 0)
            throw new ArgumentException("--standalone-collectors needs --collector-fleet N (the simulated instances they poll).");
        if (options.SeedBlock > 0 && options.Postgres is null)
            throw new ArgumentException("--seed-block needs --postgres.");
        if (options.Postgres is not null && (options.Sessions > 0 || (options.CollectorFleet > 0 && options.StandaloneCollectors == 0) || options.ProbeAssessment || options.SoakMinutes > 0))
            throw new ArgumentException("--postgres runs the page benchmark and --ingest-clients only; the sessions, collector, probe and soak runs copy a SQLite store.");
        return options;
    }

    static Dictionary<string, string> With(IReadOnlyDictionary<string, string> environment, string assignment)
    {
        var equals = assignment.IndexOf('=');
        if (equals <= 0) throw new ArgumentException($"--server-env needs NAME=VALUE, not {assignment}.");
        return new Dictionary<string, string>(environment) { [assignment[..equals]] = assignment[(equals + 1)..] };
    }

    static int Positive(int value, string name) =>
        value > 0 ? value : throw new ArgumentException($"{name} must be positive.");
}

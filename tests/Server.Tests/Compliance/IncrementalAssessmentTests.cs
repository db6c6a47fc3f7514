using System.Diagnostics.Metrics;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Zeroing;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Policy;
using IfiDashboard.Store.Remediation;
using IfiDashboard.Server.Tests.Store;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Compliance;

/// <summary>
/// The incremental assessment against the full one: a random fleet goes through a random sequence of polls (through
/// the real write path, some delivered late), rule changes, waivers, registration edits and clock moves (minutes,
/// hours, over midnight, onto a window's edge), and after each step the incremental build must equal a build of every
/// instance at the same clock.
/// </summary>
public sealed class IncrementalAssessmentTests
{
    static readonly CancellationToken None = CancellationToken.None;

    /// <summary>
    /// One random sequence per seed, each seed a test class of its own so that xUnit runs them side by side: it runs a
    /// theory's cases one after another, and as one theory the eight seeds were the longest class of the suite, still
    /// running alone a minute or more after every other class had ended.
    /// </summary>
    public abstract class RandomChanges(int seed)
    {
        [Theory, StoreProviders]
        public async Task Incremental_builds_equal_full_builds_through_random_changes(StoreProvider provider)
        {
            await using var bed = await AssessmentBed.CreateAsync(provider);
            var random = new Random(seed);
            var fleet = new RandomFleet(bed, random);
            await fleet.RegisterAsync(30);
            foreach (var id in fleet.Ids)
                await fleet.PollAsync(id);

            for (var step = 0; step < 60; step++)
            {
                var change = await fleet.RandomStepAsync();
                var incremental = await bed.Incremental.BuildAsync(None);
                var full = await bed.NewBuilder().RebuildAsync(None);
                AssertSame(full, incremental, $"seed {seed}, step {step} ({change})");
            }
        }
    }

    public sealed class Seed1601() : RandomChanges(1601);
    public sealed class Seed1602() : RandomChanges(1602);
    public sealed class Seed1603() : RandomChanges(1603);
    public sealed class Seed1604() : RandomChanges(1604);
    public sealed class Seed1605() : RandomChanges(1605);
    public sealed class Seed1606() : RandomChanges(1606);
    public sealed class Seed1607() : RandomChanges(1607);
    public sealed class Seed1608() : RandomChanges(1608);

    [Theory, StoreProviders]
    public async Task An_unchanged_fleet_a_minute_later_reads_no_instance_again(StoreProvider provider)
    {
        await using var bed = await AssessmentBed.CreateAsync(provider);
        var fleet = new RandomFleet(bed, new Random(1616), duplicates: false);
        await fleet.RegisterAsync(10);
        foreach (var id in fleet.Ids)
            await fleet.PollAsync(id);
        await bed.Incremental.BuildAsync(None);

        using var counted = new ReassessedInstances(bed.Meters);
        bed.Clock.Advance(TimeSpan.FromMinutes(1));
        await bed.Incremental.BuildAsync(None);

        Assert.Equal(0, counted.ByIncrementalBuilds);
        await fleet.PollAsync(fleet.Ids[3]);
        await bed.Incremental.BuildAsync(None);
        Assert.Equal(1, counted.ByIncrementalBuilds);
    }

    [Theory, StoreProviders]
    public async Task An_unchanged_instance_is_held_once_from_build_to_build(StoreProvider provider)
    {
        await using var bed = await AssessmentBed.CreateAsync(provider);
        var fleet = new RandomFleet(bed, new Random(1617), duplicates: false);
        await fleet.RegisterAsync(10);
        foreach (var id in fleet.Ids)
            await fleet.PollAsync(id);
        var first = await bed.Incremental.BuildAsync(None);

        // Each build reads every registration again; an unchanged one's copy must not be kept beside the assessed one.
        bed.Clock.Advance(TimeSpan.FromMinutes(1));
        await bed.Incremental.BuildAsync(None);
        bed.Clock.Advance(TimeSpan.FromMinutes(1));
        var third = await bed.Incremental.BuildAsync(None);

        Assert.Equal(10, third.Instances.Count);
        Assert.All(third.Instances, i =>
        {
            Assert.Same(first.Find(i.Registration.Id)!.Registration, i.Registration);
            Assert.Same(i.Registration, bed.Incremental.RegistrationHeldFor(i.Registration.Id));
        });

        // A changed instance is held as read by the build that assessed it again.
        await fleet.PollAsync(fleet.Ids[3]);
        var fourth = await bed.Incremental.BuildAsync(None);
        Assert.Same(fourth.Find(fleet.Ids[3])!.Registration, bed.Incremental.RegistrationHeldFor(fleet.Ids[3]));
    }

    static void AssertSame(FleetAssessment expected, FleetAssessment actual, string step)
    {
        // The differences are written out only when there are some: every step serialized every instance a second
        // time for a message no one read.
        if (AssessmentFingerprint.Of(expected) != AssessmentFingerprint.Of(actual))
            Assert.Fail($"{step}: the incremental fingerprint differs: {Differences(expected, actual)}");
        Assert.True(expected.ComputedAt == actual.ComputedAt, step);
        Assert.True(expected.PolicyVersion == actual.PolicyVersion, step);
        Assert.True(expected.Polled == actual.Polled && expected.LastPollAt == actual.LastPollAt, step);
        Assert.True(expected.DuplicateOf.Keys.Order().SequenceEqual(actual.DuplicateOf.Keys.Order()), step);
        Assert.True(expected.Daily.SequenceEqual(actual.Daily), $"{step}: the daily series differs");
    }

    static string Differences(FleetAssessment expected, FleetAssessment actual) =>
        string.Join("; ", expected.Instances.Zip(actual.Instances)
            .Where(p => System.Text.Json.JsonSerializer.Serialize(p.First) != System.Text.Json.JsonSerializer.Serialize(p.Second))
            .Take(3)
            .Select(p => $"instance {p.First.Registration.Name} (full/incremental): {p.First.Compliance.Status}/{p.Second.Compliance.Status}, " +
                         $"stale {p.First.Compliance.IsStale}/{p.Second.Compliance.IsStale}, " +
                         $"30 d lost {p.First.TimeLost.Last30Days}/{p.Second.TimeLost.Last30Days}")
            .DefaultIfEmpty(expected.Instances.Count != actual.Instances.Count ? "instance counts differ" : "the windows differ"));

    /// <summary>A store with the assessment's parts over it, and one builder kept from build to build.</summary>
    sealed class AssessmentBed : IAsyncDisposable
    {
        readonly ServiceProvider _metrics = new ServiceCollection().AddMetrics().BuildServiceProvider();

        AssessmentBed(TestStore store)
        {
            Store = store;
            Policies = new PolicyStore(store.Connections, store.Clock, store.Audit);
            Incremental = NewBuilder();
        }

        public TestStore Store { get; }
        public PolicyStore Policies { get; }
        public FleetAssessmentBuilder Incremental { get; }
        public Microsoft.Extensions.Time.Testing.FakeTimeProvider Clock => Store.Clock;
        public IMeterFactory Meters => _metrics.GetRequiredService<IMeterFactory>();

        public static async Task<AssessmentBed> CreateAsync(StoreProvider provider) => new(await TestStore.CreatePooledAsync(provider));

        public FleetAssessmentBuilder NewBuilder() => new(new FactsReader(Store.Connections), Policies,
            new DailyComplianceStore(Store.Connections), new RemediationPacks(Store.Connections, Store.Audit),
            new ZeroingRateOptions(), Store.Clock, Meters);

        public async ValueTask DisposeAsync()
        {
            await _metrics.DisposeAsync();
            await Store.DisposeAsync();
        }
    }

    /// <summary>Instances with random registrations and polls, and the random changes a step makes.</summary>
    /// <param name="duplicates">Whether a poll may report another registration's server name (a duplicate).</param>
    sealed class RandomFleet(AssessmentBed bed, Random random, bool duplicates = true)
    {
        static readonly string[] Environments = ["Production", "Test", "Development"];
        static readonly string[] Tags = ["pci", "finance", "web"];
        static readonly string[] Databases = ["Sales", "Stock", "Audit"];

        readonly Dictionary<long, DateTimeOffset> _lastPoll = [];
        readonly List<long> _ids = [];
        int _names;

        public IReadOnlyList<long> Ids => _ids;

        public async Task RegisterAsync(int count)
        {
            for (var i = 0; i < count; i++)
            {
                var written = await bed.Store.Instances.RegisterAsync(Registration(), None);
                _ids.Add(written.Record!.Registration.Id);
            }
        }

        InstanceRegistration Registration() => new()
        {
            Name = $"sql{++_names:D3}",
            Host = $"sql{_names:D3}.corp.example",
            Port = 1433,
            Environment = Environments[random.Next(Environments.Length)],
            Tags = Tags.Where(_ => random.Next(3) == 0).ToList(),
            // Short intervals go stale within the steps' clock moves; long ones rarely.
            PollIntervalSeconds = random.Next(3) switch { 0 => 60, 1 => 300, _ => 3600 },
        };

        public async Task<string> RandomStepAsync()
        {
            switch (random.Next(12))
            {
                case 0 or 1 or 2:
                    var polled = _ids[random.Next(_ids.Count)];
                    await PollAsync(polled);
                    return $"poll of {polled}";
                case 3:
                    var late = _ids[random.Next(_ids.Count)];
                    await PollAsync(late, finishedAt: bed.Clock.GetUtcNow().AddHours(-random.Next(1, 48)));
                    return $"late poll of {late}";
                case 4:
                    await ChangeRulesAsync();
                    return "rules changed";
                case 5:
                    var waived = _ids[random.Next(_ids.Count)];
                    await bed.Policies.GrantWaiverAsync(new Waiver
                    {
                        InstanceId = waived, Reason = "vendor window", Author = "dba",
                        GrantedAt = bed.Clock.GetUtcNow().AddMinutes(random.Next(-5, 30)),
                        ExpiresAt = bed.Clock.GetUtcNow().AddMinutes(random.Next(1, 600)),
                    }, None);
                    return $"waiver for {waived}";
                case 6:
                    var edited = _ids[random.Next(_ids.Count)];
                    var registration = (await bed.Store.Instances.GetAsync(edited, None))!;
                    await bed.Store.Instances.UpdateAsync(registration with
                    {
                        Environment = Environments[random.Next(Environments.Length)],
                        Tags = Tags.Where(_ => random.Next(2) == 0).ToList(),
                        PollIntervalSeconds = random.Next(2) == 0 ? 60 : 600,
                    }, None);
                    return $"registration of {edited} edited";
                case 7:
                    return await MoveToWindowEdgeAsync();
                case 8:
                    var midnight = bed.Clock.GetUtcNow().UtcDateTime.Date.AddDays(1);
                    MoveTo(new DateTimeOffset(midnight, TimeSpan.Zero).AddMinutes(random.Next(-2, 3)));
                    return "clock near midnight";
                case 9:
                    bed.Clock.Advance(TimeSpan.FromHours(random.Next(1, 30)));
                    return "clock moved hours";
                default:
                    bed.Clock.Advance(TimeSpan.FromMinutes(random.Next(1, 20)));
                    return "clock moved minutes";
            }
        }

        /// <summary>The fake clock only goes forward (the assessment starts over when the real one goes back).</summary>
        void MoveTo(DateTimeOffset moment) => bed.Clock.SetUtcNow(moment > bed.Clock.GetUtcNow() ? moment : bed.Clock.GetUtcNow());

        /// <summary>To a tick before an event leaves the 7, 30 or 90-day window, onto it, or just past it.</summary>
        async Task<string> MoveToWindowEdgeAsync()
        {
            var now = bed.Clock.GetUtcNow();
            var days = new[] { 7, 30, 90 }[random.Next(3)];
            var events = new List<DateTimeOffset>();
            await foreach (var (_, batch) in new FactsReader(bed.Store.Connections).GrowthEventsByInstanceAsync(now.AddDays(-days), null, None))
                events.AddRange(batch.Select(e => e.StartTime.AddDays(days)).Where(edge => edge > now));
            if (events.Count == 0)
            {
                bed.Clock.Advance(TimeSpan.FromDays(1));
                return "clock moved a day";
            }
            var edge = events.Min();
            MoveTo(edge + TimeSpan.FromTicks(random.Next(-1, 3)));
            return $"clock at a {days}-day window edge";
        }

        async Task ChangeRulesAsync()
        {
            var rules = new List<PolicyRule>();
            if (random.Next(2) == 0)
                rules.Add(new PolicyRule { Name = "PCI forbids", Desired = DesiredState.Forbidden, Tags = ["pci"] });
            if (random.Next(2) == 0)
                rules.Add(new PolicyRule { Name = "Test is free", Desired = DesiredState.NotApplicable, Environment = "Test" });
            rules.Add(new PolicyRule { Name = "Everything else", Desired = DesiredState.Required });
            await bed.Policies.SaveRulesAsync(rules, "dba", None);
        }

        /// <summary>A poll through SnapshotStore, finished now (or at <paramref name="finishedAt"/>: delivered late).</summary>
        public async Task PollAsync(long id, DateTimeOffset? finishedAt = null)
        {
            var finished = finishedAt ?? bed.Clock.GetUtcNow();
            var since = _lastPoll.TryGetValue(id, out var last) && finishedAt is null ? last : finished.AddDays(-95);
            if (finishedAt is null) _lastPoll[id] = finished;
            await bed.Store.Snapshots.WriteAsync(Snapshot(id, finished, since), None);
        }

        InstanceSnapshot Snapshot(long id, DateTimeOffset finished, DateTimeOffset eventsSince)
        {
            var snapshot = new InstanceSnapshot
            {
                SnapshotId = Guid.NewGuid(),
                InstanceId = id,
                StartedAt = finished.AddSeconds(-1),
                FinishedAt = finished,
                CollectorName = "incremental-test",
            };
            if (random.Next(8) == 0)
                return snapshot with { Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Unreachable, "host not found")] };
            var ifi = random.Next(3) switch { 0 => "N", _ => "Y" };
            // Now and then the name another registration's server reported: the two are one server, counted once.
            var server = duplicates && random.Next(10) == 0 ? $"HOST{_ids[random.Next(_ids.Count)]}" : $"HOST{id}";
            return snapshot with
            {
                Identity = new InstanceIdentity
                {
                    ProductVersion = "16.0.4135.4", Edition = "Enterprise Edition (64-bit)", EngineEdition = 3,
                    MachineName = server, ServerName = server,
                },
                Services =
                [
                    new ServiceInfo
                    {
                        ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = random.Next(4) == 0 ? "LocalSystem" : @"CORP\svc_sql",
                        StatusDesc = "Running", ProcessId = 4000, LastStartupTime = finished.AddDays(-random.Next(1, 120)),
                        InstantFileInitializationEnabled = ifi, IsEngine = true,
                    },
                ],
                ServerUtcOffsetMinutes = 0,
                Files = Databases.Select((name, i) => new DatabaseFileInfo
                {
                    DatabaseId = 5 + i, DatabaseName = name, FileId = 1, LogicalName = name, PhysicalName = $@"D:\Data\{name}.mdf",
                    Type = 0, SizePages = 128_000 * (1 + random.Next(4)), Growth = 8192,
                }).ToList(),
                Encryption = random.Next(4) == 0 ? [new DatabaseEncryptionInfo(5, 3)] : [],
                DefaultTrace = new DefaultTraceState(true, @"D:\MSSQL\Log\log_1.trc", 0),
                GrowthEvents = Events(eventsSince, finished),
                Probes =
                [
                    new(ProbeNames.Connect, OutcomeClass.Ok), new(ProbeNames.Identity, OutcomeClass.Ok),
                    new(ProbeNames.Services, OutcomeClass.Ok), new(ProbeNames.Files, OutcomeClass.Ok),
                    new(ProbeNames.Encryption, OutcomeClass.Ok), new(ProbeNames.DefaultTrace, OutcomeClass.Ok),
                    new(ProbeNames.GrowthEvents, OutcomeClass.Ok),
                ],
            };
        }

        /// <summary>A few growth events between the two moments, some of them days back so that they reach window edges.</summary>
        List<GrowthEventInfo> Events(DateTimeOffset since, DateTimeOffset until)
        {
            var span = until - since;
            return Enumerable.Range(0, random.Next(0, 6)).Select(_ =>
            {
                var start = since + span * random.NextDouble();
                var database = random.Next(Databases.Length);
                var log = random.Next(5) == 0;
                var pages = 256L * (1 + random.Next(20_000));
                var micros = 1_000L + random.Next(30_000_000);
                return new GrowthEventInfo
                {
                    EventClass = log ? 93 : 92, DatabaseId = 5 + database, DatabaseName = Databases[database],
                    FileName = Databases[database] + (log ? "_log" : ""), StartTime = start, EndTime = start.AddTicks(micros * 10),
                    DurationMicroseconds = micros, GrowthPages = pages,
                };
            }).ToList();
        }
    }
}

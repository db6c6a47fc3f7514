using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// A deterministic fleet shaped like a real estate: mostly 2016 SP1 to 2022, a tail of old builds without the IFI
/// column, a few Linux hosts and cloud instances, IFI on for about 60%, some TDE, a handful of growth events and
/// recent full backups per instance. The same seed gives the same fleet, so runs compare.
/// </summary>
internal static class BenchmarkFleet
{
    public const string Login = "ifi_collector";
    public const string Password = "Bench-Only-Pw1";

    // Weights in percent; old builds are rare but present, because their services probe takes the legacy path.
    static readonly (string Profile, int Weight)[] Profiles =
    [
        ("2012-SP3", 2), ("2012-SP4", 3), ("2014-SP2", 2), ("2014-SP3", 6), ("2016-RTM", 2), ("2016-SP1", 12),
        ("2017", 15), ("2019", 30), ("2022", 20), ("2025", 6), ("managed-instance", 1), ("azure-sql-db", 1),
    ];

    public static Scenario Create(int count, int seed)
    {
        var random = new Random(seed);
        var now = DateTimeOffset.UtcNow;
        return new Scenario
        {
            DefaultLogins =
            [
                new ScenarioLogin
                {
                    Name = Login,
                    Password = Password,
                    Permissions = ["VIEW SERVER STATE", "VIEW SERVER SECURITY STATE", "ALTER TRACE", "VIEW ANY DEFINITION", "VIEW ANY ERROR LOG"],
                },
            ],
            Instances = [.. Enumerable.Range(1, count).Select(i => Instance(i, random, now))],
        };
    }

    static ScenarioInstance Instance(int number, Random random, DateTimeOffset now)
    {
        var profile = PickProfile(random);
        var cloud = profile is "azure-sql-db" or "managed-instance";
        var modern = profile is "2017" or "2019" or "2022" or "2025";
        var linux = modern && random.Next(100) < 15;
        var instance = new ScenarioInstance
        {
            Name = $"bench-{number:D5}",
            Profile = profile,
            Platform = linux ? "Linux" : "Windows",
            IfiEnabled = random.Next(100) < 60,
            ServiceAccount = random.Next(100) < 70 ? @"NT Service\MSSQLSERVER" : @"CORP\svc_sql$",
            ProcessId = 1000 + number,
            // Force Encryption on some servers; both give full TLS to an Encrypt=Mandatory client.
            Encryption = random.Next(100) < 30 ? EncryptionSupport.Required : EncryptionSupport.Optional,
            UtcOffsetMinutes = random.Next(3) switch { 0 => 0, 1 => 60, _ => -300 },
        };
        if (profile == "azure-sql-db") return instance;

        var databases = Enumerable.Range(1, 1 + random.Next(3))
            .Select(d => new ScenarioDatabase { Name = $"App{d}", EncryptionState = !cloud && random.Next(100) < 10 ? 3 : 0 })
            .ToList();
        instance.Databases = databases;
        instance.GrowthEvents = [.. GrowthEvents(databases, random, now)];
        instance.Backups = [.. databases.Select(d => Backup(d.Name, random, now))];
        return instance;
    }

    static string PickProfile(Random random)
    {
        var roll = random.Next(Profiles.Sum(p => p.Weight));
        foreach (var (profile, weight) in Profiles)
        {
            if (roll < weight) return profile;
            roll -= weight;
        }
        return Profiles[^1].Profile;
    }

    /// <summary>3 to 6 autogrowths over the last 30 days, oldest first as the trace records them.</summary>
    static IEnumerable<ScenarioGrowthEvent> GrowthEvents(List<ScenarioDatabase> databases, Random random, DateTimeOffset now) =>
        Enumerable.Range(0, 3 + random.Next(4))
            .Select(_ =>
            {
                var database = databases[random.Next(databases.Count)].Name;
                var log = random.Next(100) < 30;
                return new ScenarioGrowthEvent
                {
                    EventClass = log ? 93 : 92,
                    Database = database,
                    FileName = log ? database + "_log" : database,
                    StartTime = now.AddMinutes(-random.Next(1, 30 * 24 * 60)),
                    DurationMicroseconds = random.Next(2_000, 40_000_000),
                    GrowthPages = 8192,
                    Spid = 51 + random.Next(200),
                };
            })
            .OrderBy(e => e.StartTime);

    static ScenarioBackup Backup(string database, Random random, DateTimeOffset now)
    {
        var finish = now.AddHours(-random.Next(1, 5 * 24));
        var size = 1_000_000_000m + random.Next(1, 50_000) * 1_000_000m;
        return new ScenarioBackup { Database = database, Start = finish.AddMinutes(-20), Finish = finish, BackupSize = size, CompressedBackupSize = size / 3 };
    }
}

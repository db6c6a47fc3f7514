using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>
/// A deterministic fleet with the mix a large estate has: versions 2012 SP3 to 2025, Windows and Linux, IFI on, off
/// and unknown for the usual reasons, environments, owners, tags (some PCI), ten files each, TDE on some databases,
/// and a skewed number of growth events per instance (a few busy instances grow most).
/// </summary>
internal static class SyntheticFleet
{
    static readonly (SqlVersion Version, int Weight)[] Versions =
    [
        (new("11.0.6020.0", "SP3", null), 3),
        (new("12.0.6024.0", "SP3", null), 7),
        (new("13.0.6300.2", "SP3", null), 15),
        (new("14.0.3465.1", "RTM", "CU31"), 20),
        (new("15.0.4375.4", "RTM", "CU27"), 30),
        (new("16.0.4165.4", "RTM", "CU16"), 22),
        (new("17.0.1000.7", "RTM", null), 3),
    ];

    static readonly (string Name, string Prefix, int Weight)[] Environments =
    [
        ("Production", "prd", 45), ("Staging", "stg", 15), ("Test", "tst", 20), ("Development", "dev", 15), ("DR", "dr", 5),
    ];

    static readonly string[] Owners = ["dba-core", "dba-finance", "app-erp", "app-web", "data-platform", "bi-team", "payments", "hr-systems"];
    static readonly string[] OptionalTags = ["finance", "erp", "web", "reporting", "tier1", "tier2", "always-on", "legacy"];

    public static IEnumerable<SyntheticInstance> Create(int count, int events, int seed, DateTimeOffset now, int days)
    {
        var random = new Random(seed);
        var weights = new double[count];
        var shapes = new List<Func<int, SyntheticInstance>>(count);
        for (var i = 0; i < count; i++)
        {
            var (shape, azure) = Shape(random, i, now, days);
            // Log-normal: most instances grow now and then, a few grow all day.
            weights[i] = azure ? 0 : Math.Exp(0.9 * Gaussian(random));
            shapes.Add(shape);
        }
        var counts = Apportion(weights, events);
        for (var i = 0; i < count; i++)
            yield return shapes[i](counts[i]);
    }

    static (Func<int, SyntheticInstance> Build, bool Azure) Shape(Random random, int index, DateTimeOffset now, int days)
    {
        var environment = Pick(random, Environments, e => e.Weight);
        var version = Pick(random, Versions, v => v.Weight).Version;
        var azure = random.NextDouble() < 0.01;
        var linux = !azure && version.Major >= 14 && random.NextDouble() < 0.12;
        var tags = OptionalTags.Where(_ => random.NextDouble() < 0.15).ToList();
        if (random.NextDouble() < 0.08) tags.Insert(0, "pci");
        if (linux) tags.Add("linux");
        var name = $"{environment.Prefix}-sql{index:D5}";
        var named = random.NextDouble() < 0.2;
        var ifi = random.NextDouble() < 0.6;
        DateTimeOffset? flipped = random.NextDouble() < 0.03 ? now.AddDays(-random.Next(1, days - 1)).AddMinutes(-random.Next(1440)) : null;
        OutcomeClass? failure = random.NextDouble() switch
        {
            < 0.02 => OutcomeClass.Unreachable,
            < 0.03 => OutcomeClass.PermissionMissing,
            < 0.035 => OutcomeClass.LoginFailed,
            < 0.04 => OutcomeClass.TlsError,
            _ => null,
        };
        var files = Files(random, version.Major, linux);
        var encrypted = random.NextDouble() < 0.15 ? new HashSet<int> { files.First(f => f.DatabaseId > 4).DatabaseId } : new HashSet<int>();
        var account = linux ? "mssql" : random.NextDouble() switch
        {
            < 0.45 => named ? "NT Service\\MSSQL$INST01" : "NT Service\\MSSQLSERVER",
            < 0.75 => $"CORP\\gmsa-{environment.Prefix}-sql$",
            < 0.95 => $"CORP\\svc-sql-{environment.Prefix}",
            _ => "LocalSystem",
        };
        var owner = random.NextDouble() < 0.05 ? null : Owners[random.Next(Owners.Length)];
        var rate = (200 + random.Next(1000)) * 1024.0 * 1024;
        return (eventCount => new SyntheticInstance
        {
            Index = index,
            Name = name,
            Host = azure ? $"{name}.database.windows.net" : $"{name}.corp.example",
            InstanceName = named ? "INST01" : null,
            Environment = environment.Name,
            Owner = owner,
            Tags = tags,
            Version = azure ? new SqlVersion("12.0.2000.8", "RTM", null) : version,
            Linux = linux,
            AzureSqlDatabase = azure,
            IfiEnabled = ifi,
            IfiFlippedAt = azure ? null : flipped,
            LatestFailure = azure ? null : failure,
            ServiceAccount = account,
            Files = files,
            EncryptedDatabases = encrypted,
            ZeroingBytesPerSecond = rate,
            EventCount = eventCount,
        }, azure);
    }

    /// <summary>tempdb and three user databases: ten files, data and log, fixed and percent growth.</summary>
    static List<DatabaseFileInfo> Files(Random random, int major, bool linux)
    {
        var root = linux ? "/var/opt/mssql/data/" : $"D:\\MSSQL{major}\\Data\\";
        var logRoot = linux ? "/var/opt/mssql/log/" : $"L:\\MSSQL{major}\\Log\\";
        var files = new List<DatabaseFileInfo>();
        void Add(int databaseId, string database, int fileId, string logical, byte type, int sizeMb, int growthMb, bool percent)
        {
            var path = (type == 1 ? logRoot : root) + logical + (type == 1 ? ".ldf" : fileId == 1 ? ".mdf" : ".ndf");
            files.Add(new DatabaseFileInfo
            {
                DatabaseId = databaseId, DatabaseName = database, FileId = fileId, LogicalName = logical, PhysicalName = path,
                Type = type, StateDesc = "ONLINE", SizePages = sizeMb * 128, MaxSizePages = -1,
                Growth = percent ? 10 : growthMb * 128, IsPercentGrowth = percent,
            });
        }
        Add(2, "tempdb", 1, "tempdev", 0, 8 * 1024, 512, false);
        Add(2, "tempdb", 2, "templog", 1, 2 * 1024, 256, false);
        string[] names = ["Sales", "Billing", "Warehouse", "Crm", "Hr", "Audit", "Orders", "Inventory"];
        var first = random.Next(names.Length);
        for (var d = 0; d < 3; d++)
        {
            var database = names[(first + d) % names.Length];
            var id = 5 + d;
            var dataFiles = d == 2 ? 1 : 2;
            for (var f = 0; f < dataFiles; f++)
                Add(id, database, f == 0 ? 1 : 3, f == 0 ? database : $"{database}_data{f + 1}", 0,
                    1024 * (1 + random.Next(400)), new[] { 64, 256, 512, 1024 }[random.Next(4)], random.NextDouble() < 0.1);
            Add(id, database, 2, $"{database}_log", 1, 512 * (1 + random.Next(64)), new[] { 64, 128, 512 }[random.Next(3)], random.NextDouble() < 0.05);
        }
        return files;
    }

    /// <summary>Splits <paramref name="total"/> in proportion to the weights, exactly.</summary>
    static int[] Apportion(double[] weights, int total)
    {
        var sum = weights.Sum();
        var counts = weights.Select(w => sum == 0 ? 0 : (int)Math.Floor(total * w / sum)).ToArray();
        var remainder = total - counts.Sum();
        for (var i = 0; remainder > 0 && sum > 0; i = (i + 1) % counts.Length)
        {
            if (weights[i] == 0) continue;
            counts[i]++;
            remainder--;
        }
        return counts;
    }

    static T Pick<T>(Random random, IReadOnlyList<T> items, Func<T, int> weight)
    {
        var roll = random.Next(items.Sum(weight));
        foreach (var item in items)
        {
            roll -= weight(item);
            if (roll < 0) return item;
        }
        return items[^1];
    }

    static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
}

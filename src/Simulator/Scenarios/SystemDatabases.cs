namespace IfiDashboard.Simulator.Scenarios;

/// <summary>master, tempdb, model and msdb with the file names, sizes and growth settings setup gives them.</summary>
internal static class SystemDatabases
{
    private static readonly string[] Names = ["master", "tempdb", "model", "msdb"];

    public static int? IdOf(string name)
    {
        var index = Array.FindIndex(Names, n => string.Equals(n, name, StringComparison.OrdinalIgnoreCase));
        return index < 0 ? null : index + 1;
    }

    public static bool IsSimpleByDefault(string name) =>
        name.Equals("master", StringComparison.OrdinalIgnoreCase)
        || name.Equals("tempdb", StringComparison.OrdinalIgnoreCase)
        || name.Equals("msdb", StringComparison.OrdinalIgnoreCase);

    public static IEnumerable<ScenarioDatabase> For(ScenarioInstance instance)
    {
        var linux = InstancePaths.IsLinux(instance);
        // 2016 setup moved tempdb and model to 8 MB files growing by 64 MB; before that 10% growth was the default.
        var modern = VersionProfiles.Get(instance.Profile).Major >= 13;
        var (size, logSize, growth, percent) = modern ? (1024, 1024, 8192, false) : (128, 64, 10, true);

        yield return Database(instance, "master", 1,
            File("master", "master.mdf", 512, 10, true), Log("mastlog", "mastlog.ldf", 256, 10, true));
        yield return Database(instance, "tempdb", 2,
            File("tempdev", "tempdb.mdf", size, growth, percent), Log("templog", "templog.ldf", logSize, growth, percent));
        yield return Database(instance, "model", 3,
            File("modeldev", "model.mdf", size, growth, percent), Log("modellog", "modellog.ldf", logSize, growth, percent));
        yield return Database(instance, "msdb", 4,
            File("MSDBData", linux ? "msdbdata.mdf" : "MSDBData.mdf", 2048, 10, true),
            Log("MSDBLog", linux ? "msdblog.ldf" : "MSDBLog.ldf", 96, 10, true));
    }

    private static (string Name, string FileName, int Size, int Growth, bool Percent, DatabaseFileType Type) File(
        string name, string fileName, int size, int growth, bool percent) =>
        (name, fileName, size, growth, percent, DatabaseFileType.Rows);

    private static (string Name, string FileName, int Size, int Growth, bool Percent, DatabaseFileType Type) Log(
        string name, string fileName, int size, int growth, bool percent) =>
        (name, fileName, size, growth, percent, DatabaseFileType.Log);

    private static ScenarioDatabase Database(
        ScenarioInstance instance,
        string name,
        int id,
        params (string Name, string FileName, int Size, int Growth, bool Percent, DatabaseFileType Type)[] files)
    {
        var directory = InstancePaths.DataDirectory(instance);
        return new ScenarioDatabase
        {
            Name = name,
            Id = id,
            Files =
            [
                .. files.Select(f => new ScenarioDatabaseFile
                {
                    Name = f.Name,
                    PhysicalName = InstancePaths.Combine(instance, directory, f.FileName),
                    Type = f.Type,
                    SizePages = f.Size,
                    // A log's default cap is 2 TB (268435456 pages); data files grow without limit.
                    MaxSizePages = f.Type == DatabaseFileType.Log ? 268435456 : -1,
                    Growth = f.Growth,
                    IsPercentGrowth = f.Percent,
                }),
            ],
        };
    }
}

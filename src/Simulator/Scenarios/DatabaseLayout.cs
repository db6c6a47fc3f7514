namespace IfiDashboard.Simulator.Scenarios;

/// <summary>A database with its defaults filled in and its files numbered, as the engine reports it.</summary>
internal sealed record ResolvedDatabase(
    int Id, string Name, string RecoveryModel, int EncryptionState, IReadOnlyList<ResolvedFile> Files)
{
    /// <summary>The source database's name when this is a database snapshot (every file sparse).</summary>
    public string? SnapshotOf { get; init; }

    public bool IsSnapshot => SnapshotOf is not null;

    public bool IsEncrypted => EncryptionState is 2 or 3 or 4 or 6;
}

internal sealed record ResolvedFile(
    int FileId, string Name, string PhysicalName, DatabaseFileType Type, int SizePages, int MaxSizePages, int Growth,
    bool IsPercentGrowth);

/// <summary>
/// The databases an instance has: the four system databases (unless the scenario lists one by name) and the
/// scenario's own, each with files, ordered by database_id.
/// </summary>
internal static class DatabaseLayout
{
    private const int FirstUserDatabaseId = 5;

    public static IReadOnlyList<ResolvedDatabase> For(ScenarioInstance instance)
    {
        var listed = instance.Databases;
        var result = new List<ResolvedDatabase>();
        foreach (var system in SystemDatabases.For(instance))
        {
            if (!listed.Any(d => string.Equals(d.Name, system.Name, StringComparison.OrdinalIgnoreCase)))
            {
                result.Add(Resolve(instance, system, system.Id));
            }
        }

        var nextId = FirstUserDatabaseId;
        foreach (var database in listed)
        {
            var id = database.Id != 0 ? database.Id : SystemDatabases.IdOf(database.Name) ?? nextId;
            nextId = Math.Max(nextId, id + 1);
            result.Add(Resolve(instance, database, id));
        }

        return [.. result.OrderBy(d => d.Id)];
    }

    public static ResolvedDatabase? Find(ScenarioInstance instance, string name) =>
        For(instance).FirstOrDefault(d => string.Equals(d.Name, name, StringComparison.OrdinalIgnoreCase));

    private static ResolvedDatabase Resolve(ScenarioInstance instance, ScenarioDatabase database, int id)
    {
        var files = database.Files.Count > 0 ? database.Files : DefaultFiles(instance, database.Name);
        var numbered = new List<ResolvedFile>();
        var next = 3;
        var firstRows = true;
        var firstLog = true;
        foreach (var file in files)
        {
            // SQL Server gives the primary data file id 1 and the first log file id 2; later files count on from 3.
            var fileId = file.FileId;
            if (fileId == 0)
            {
                fileId = file.Type == DatabaseFileType.Rows && firstRows ? 1
                    : file.Type == DatabaseFileType.Log && firstLog ? 2
                    : next++;
            }

            firstRows &= file.Type != DatabaseFileType.Rows;
            firstLog &= file.Type != DatabaseFileType.Log;
            numbered.Add(new ResolvedFile(fileId, file.Name, file.PhysicalName, file.Type, file.SizePages,
                file.MaxSizePages, file.Growth, file.IsPercentGrowth));
        }

        var recovery = database.RecoveryModel?.ToUpperInvariant()
                       ?? (SystemDatabases.IsSimpleByDefault(database.Name) ? "SIMPLE" : "FULL");
        return new ResolvedDatabase(id, database.Name, recovery, database.EncryptionState,
            [.. numbered.OrderBy(f => f.FileId)]) { SnapshotOf = database.SnapshotOf };
    }

    private static List<ScenarioDatabaseFile> DefaultFiles(ScenarioInstance instance, string name)
    {
        var directory = InstancePaths.DataDirectory(instance);
        return
        [
            new() { Name = name, PhysicalName = InstancePaths.Combine(instance, directory, name + ".mdf") },
            new()
            {
                Name = name + "_log", PhysicalName = InstancePaths.Combine(instance, directory, name + "_log.ldf"),
                Type = DatabaseFileType.Log,
            },
        ];
    }
}

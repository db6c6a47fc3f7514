using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.Tracing;

/// <summary>
/// The default trace's files as they are on disk now: events fill files of EventsPerFile in the order they happened,
/// a rollover point starts a new file early, and only the newest MaxFiles files survive (reference section 3).
/// </summary>
internal sealed class DefaultTraceFiles
{
    private const string BaseName = "log";

    private DefaultTraceFiles(ScenarioInstance instance, IReadOnlyList<TraceFile> files, int totalEvents)
    {
        Instance = instance;
        Files = files;
        TotalEvents = totalEvents;
    }

    public ScenarioInstance Instance { get; }

    /// <summary>The surviving files, oldest first; the last is the one being written.</summary>
    public IReadOnlyList<TraceFile> Files { get; }

    public TraceFile Current => Files[^1];

    /// <summary>Every event the trace has written since it started, aged-out ones included.</summary>
    public int TotalEvents { get; }

    /// <summary>The base name that makes fn_trace_gettable read every surviving file, e.g. ...\Log\log.trc.</summary>
    public string BasePath => InstancePaths.Combine(Instance, InstancePaths.LogDirectory(Instance), BaseName + ".trc");

    /// <summary>Null when the default trace is off: then there is no trace, and no files to read.</summary>
    public static DefaultTraceFiles? For(ScenarioInstance instance)
    {
        var trace = instance.DefaultTrace;
        if (!trace.Enabled)
        {
            return null;
        }

        var (events, rollovers) = instance.TraceHistory();
        var perFile = Math.Max(1, trace.EventsPerFile);
        var byFile = new SortedDictionary<int, List<ScenarioGrowthEvent>>();
        var number = trace.FirstFileNumber;
        var inFile = 0;
        for (var i = 0; i < events.Count; i++)
        {
            var early = rollovers.Count(r => r == i);
            if (early > 0)
            {
                number += early;
                inFile = 0;
            }

            if (inFile == perFile)
            {
                number++;
                inFile = 0;
            }

            if (!byFile.TryGetValue(number, out var list))
            {
                byFile[number] = list = [];
            }

            list.Add(events[i]);
            inFile++;
        }

        number += rollovers.Count(r => r >= events.Count);
        var oldest = Math.Max(trace.FirstFileNumber, number - Math.Max(1, trace.MaxFiles) + 1);
        var files = Enumerable.Range(oldest, number - oldest + 1)
            .Select(n => new TraceFile(n, PathOf(instance, n), byFile.TryGetValue(n, out var list) ? list : []))
            .ToList();
        return new DefaultTraceFiles(instance, files, events.Count);
    }

    /// <summary>
    /// The files fn_trace_gettable reads for a path: from the named file to the newest (or numberFiles of them), or
    /// every surviving file for the base name. Null when the path names no file of this trace.
    /// </summary>
    public IReadOnlyList<TraceFile>? Read(string path, int? numberFiles)
    {
        var comparison = InstancePaths.IsLinux(Instance) ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase;
        var start = string.Equals(path, BasePath, comparison)
            ? 0
            : Files.ToList().FindIndex(f => string.Equals(f.Path, path, comparison));
        if (start < 0)
        {
            return null;
        }

        var count = numberFiles is > 0 ? numberFiles.Value : int.MaxValue;
        return Files.Skip(start).Take(count).ToList();
    }

    private static string PathOf(ScenarioInstance instance, int number) =>
        InstancePaths.Combine(instance, InstancePaths.LogDirectory(instance), $"{BaseName}_{number}.trc");
}

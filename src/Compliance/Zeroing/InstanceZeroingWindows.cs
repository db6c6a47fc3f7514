using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>
/// One instance's part of several reports (the 7, 30 and 90 days) from a single pass over its judged events. Judging
/// an event does not depend on the window, so each event is judged once and counted in every window that holds it,
/// instead of filtering and judging the events once per window.
/// </summary>
public static class InstanceZeroingWindows
{
    /// <param name="assessments">The instance's judged autogrowth events (<see cref="GrowthEventAssessor.AssessAll"/>), in the set's order.</param>
    /// <param name="perDatabase">
    /// False: each window's <see cref="InstanceZeroing.Databases"/> is left empty. The fleet's resident 7/30/90-day
    /// windows need only the instance totals; a page or API call that breaks a window down by database builds that
    /// window for the instances it shows (<c>WindowedZeroing</c>), so 10,000 instances do not each hold three lists.
    /// </param>
    public static IReadOnlyList<InstanceZeroing> Build(InstanceFacts instance,
        IReadOnlyList<GrowthEventAssessment> assessments, IReadOnlyList<ZeroingWindow> windows, bool perDatabase = true)
    {
        var tallies = new WindowTally[windows.Count];
        for (var w = 0; w < tallies.Length; w++)
            tallies[w] = new WindowTally(windows[w], perDatabase);
        foreach (var a in assessments)
            foreach (var tally in tallies)
                tally.AddIfInside(a);
        return tallies.Select(t => t.ToReport(instance)).ToList();
    }

    sealed class WindowTally(ZeroingWindow window, bool perDatabase)
    {
        readonly ZeroingTally _instance = new();
        // Databases in the order their first event in the window came, the order the per-database sort breaks ties in.
        readonly List<DatabaseTally> _databases = [];
        readonly Dictionary<int, DatabaseTally> _byId = [];

        public void AddIfInside(GrowthEventAssessment a)
        {
            if (!window.Contains(a.Event.StartTime))
                return;
            _instance.Add(a);
            if (!perDatabase)
                return;
            if (!_byId.TryGetValue(a.Event.DatabaseId, out var database))
            {
                database = new DatabaseTally(a.Event);
                _byId.Add(a.Event.DatabaseId, database);
                _databases.Add(database);
            }
            database.Add(a);
        }

        public InstanceZeroing ToReport(InstanceFacts instance)
        {
            var databases = _databases
                .Select(d => new DatabaseZeroing(d.DatabaseId, d.LatestName, d.Totals.ToTotals()))
                .OrderByDescending(d => d.Totals.TimeLostMicroseconds)
                .ThenBy(d => d.DatabaseName, StringComparer.OrdinalIgnoreCase)
                .ToList();
            return new InstanceZeroing(instance.InstanceId, instance.Name, _instance.ToTotals(), databases);
        }
    }

    sealed class DatabaseTally(GrowthEventFacts first)
    {
        DateTimeOffset _latestStart = first.StartTime;

        public int DatabaseId { get; } = first.DatabaseId;
        public ZeroingTally Totals { get; } = new();

        // A database keeps its id across a rename; show the name of its latest event (the first of equally late ones).
        public string LatestName { get; private set; } = first.DatabaseName;

        public void Add(GrowthEventAssessment a)
        {
            Totals.Add(a);
            if (a.Event.StartTime > _latestStart)
            {
                _latestStart = a.Event.StartTime;
                LatestName = a.Event.DatabaseName;
            }
        }
    }
}

namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// Moves a scenario's history (growth events, backups, restores, error-log lines, service start times) by whole
/// days so that its newest moment falls on the day before <c>now</c>. The demo fleet is recorded once; shifted at
/// start it always shows "the last 7 days" with data in them, whatever day the demo runs.
/// </summary>
public static class ScenarioTimeShift
{
    public static void ShiftHistoryToYesterday(Scenario scenario, DateTimeOffset now)
    {
        var moments = scenario.Instances.SelectMany(Moments).ToList();
        if (moments.Count == 0) return;
        var days = (now.UtcDateTime.Date.AddDays(-1) - moments.Max().UtcDateTime.Date).Days;
        if (days == 0) return;
        var shift = TimeSpan.FromDays(days);
        foreach (var instance in scenario.Instances)
        {
            instance.LastStartupTime += shift;
            foreach (var e in instance.GrowthEvents) e.StartTime += shift;
            foreach (var b in instance.Backups) { b.Start += shift; b.Finish += shift; }
            foreach (var r in instance.Restores) r.RestoreDate += shift;
            foreach (var z in instance.ErrorLogZeroing) z.Time += shift;
        }
    }

    static IEnumerable<DateTimeOffset> Moments(ScenarioInstance instance) =>
        instance.GrowthEvents.Select(e => e.StartTime)
            .Concat(instance.Backups.Select(b => b.Finish))
            .Concat(instance.Restores.Select(r => r.RestoreDate))
            .Concat(instance.ErrorLogZeroing.Select(z => z.Time))
            .Append(instance.LastStartupTime);
}

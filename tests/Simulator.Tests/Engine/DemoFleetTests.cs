using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class DemoFleetTests
{
    private static readonly Scenario Demo = DemoScenario.Load();

    [Fact]
    public void Demo_fleet_has_at_least_40_instances_with_growth_history()
    {
        Assert.True(Demo.Instances.Count >= 40);
        var withGrowth = Demo.Instances.Count(i => i.GrowthEvents.Count > 0);
        Assert.True(withGrowth >= 40, $"{withGrowth} instances have growth events");
    }

    [Fact]
    public void Demo_growth_history_spans_30_to_60_days_per_instance()
    {
        foreach (var instance in Demo.Instances.Where(i => i.GrowthEvents.Count > 0))
        {
            var span = instance.GrowthEvents.Max(e => e.StartTime) - instance.GrowthEvents.Min(e => e.StartTime);
            Assert.InRange(span.TotalDays, 25, 61);
        }
    }

    [Fact]
    public void Demo_data_file_growth_is_fast_only_where_ifi_applies()
    {
        foreach (var instance in Demo.Instances)
        {
            var databases = DatabaseLayout.For(instance);
            // Managed Instance zeroes data files whatever the scenario's IFI flag says (reference section 1).
            // Trace flags 1805 and 1806 disable IFI for data files whatever the service holds (reference section 2a).
            var ifiPossible = instance.IfiEnabled && VersionProfiles.Get(instance.Profile).EngineEdition != 8
                && !instance.GlobalTraceFlags.Any(flag => flag is 1805 or 1806);
            foreach (var growth in instance.GrowthEvents.Where(e => e.EventClass == 92))
            {
                var encrypted = databases.Single(d => d.Name == growth.Database).IsEncrypted;
                var megabytesPerSecond = growth.GrowthPages * 8 / 1024.0 / (growth.DurationMicroseconds / 1e6);
                if (ifiPossible && !encrypted)
                {
                    Assert.True(growth.DurationMicroseconds <= 20_000, $"{instance.Name}: IFI growth took {growth.DurationMicroseconds} µs");
                }
                else
                {
                    Assert.InRange(megabytesPerSecond, 4.5, 3200);
                }
            }
        }
    }

    [Fact]
    public void Demo_log_growth_is_zeroed_except_small_growth_on_2022_and_later()
    {
        foreach (var instance in Demo.Instances)
        {
            var profile = VersionProfiles.Get(instance.Profile);
            foreach (var growth in instance.GrowthEvents.Where(e => e.EventClass == 93))
            {
                var small = growth.GrowthPages <= 8192 && (profile.Major >= 16 || profile.EngineEdition == 8);
                Assert.True(small || growth.DurationMicroseconds > 20_000, $"{instance.Name}: log growth without zeroing");
            }
        }
    }

    [Fact]
    public void Demo_fleet_file_stays_compact()
    {
        using var stream = typeof(DemoScenario).Assembly.GetManifestResourceStream("demo-fleet.json")!;

        Assert.InRange(stream.Length, 1, 2 * 1024 * 1024);
    }

    [Fact]
    public void Demo_has_a_disabled_default_trace_tde_databases_and_backups()
    {
        Assert.Contains(Demo.Instances, i => !i.DefaultTrace.Enabled);
        Assert.Contains(Demo.Instances, i => i.Databases.Any(d => d.IsEncrypted));
        Assert.True(Demo.Instances.Count(i => i.Backups.Count > 0) >= 40);
    }

    [Fact]
    public void Demo_growth_events_name_files_their_databases_have()
    {
        foreach (var instance in Demo.Instances)
        {
            var databases = DatabaseLayout.For(instance);
            foreach (var growth in instance.GrowthEvents)
            {
                var files = databases.Single(d => d.Name == growth.Database).Files;
                var file = Assert.Single(files, f => f.Name == growth.FileName);
                Assert.Equal(growth.EventClass is 92 or 94 ? DatabaseFileType.Rows : DatabaseFileType.Log, file.Type);
            }
        }
    }

    [Fact]
    public void Every_demo_instance_with_a_trace_answers_the_collector_growth_query()
    {
        var engine = new IfiDashboard.Simulator.Engine.QueryEngine();
        var login = Demo.DefaultLogins[0];
        // Azure SQL Database and Managed Instance run no default trace the collector reads.
        foreach (var instance in Demo.Instances.Where(i => i.Profile is not ("azure-sql-db" or "managed-instance") && i.DefaultTrace.Enabled))
        {
            var session = new IfiDashboard.Simulator.Engine.SessionContext(instance, VersionProfiles.Get(instance.Profile), login, "master");
            var path = (string)Assert.IsType<Results.ResultSet>(Assert.Single(engine.Execute(
                "SELECT path FROM sys.traces WHERE is_default = 1", new Dictionary<string, object?>(), session).Items)).Rows[0][0]!;
            var basePath = path[..(path.LastIndexOfAny(['\\', '/']) + 1)] + "log.trc";

            var events = Assert.IsType<Results.ResultSet>(Assert.Single(engine.Execute(
                "SELECT EventClass, StartTime FROM sys.fn_trace_gettable(@path, DEFAULT) WHERE EventClass IN (92, 93, 94, 95) AND StartTime > @since ORDER BY StartTime",
                new Dictionary<string, object?> { ["@path"] = basePath, ["@since"] = new DateTime(2000, 1, 1) }, session).Items));

            Assert.NotEmpty(events.Rows);
            Assert.True(events.Rows.Count <= instance.GrowthEvents.Count);
        }
    }
}

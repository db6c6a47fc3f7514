using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class TraceGetTableTests
{
    private const string LogFolder = @"C:\Program Files\Microsoft SQL Server\MSSQL15.MSSQLSERVER\MSSQL\Log\";

    private const string CollectorQuery =
        "SELECT EventClass, DatabaseID, DatabaseName, FileName, StartTime, EndTime, Duration, IntegerData " +
        "FROM sys.fn_trace_gettable(@path, DEFAULT) WHERE EventClass IN (92, 93, 94, 95) AND StartTime > @since " +
        "ORDER BY StartTime;";

    private static readonly DateTimeOffset Day = new(2026, 11, 10, 0, 0, 0, TimeSpan.Zero);

    private static ScenarioGrowthEvent Growth(int hour, int eventClass = 92, string file = "Sales") => new()
    {
        EventClass = eventClass,
        Database = "Sales",
        FileName = file,
        StartTime = Day.AddHours(hour),
        DurationMicroseconds = 2_500_000,
        GrowthPages = 8192,
    };

    private static EngineHarness Harness(Action<ScenarioInstance>? more = null, string profile = "2019", params string[] permissions) =>
        new(profile, i =>
        {
            i.Databases = [new ScenarioDatabase { Name = "Sales", Id = 9 }];
            i.GrowthEvents = [Growth(1), Growth(2, 93, "Sales_log"), Growth(3)];
            more?.Invoke(i);
        }, permissions);

    private static Dictionary<string, object?> Parameters(string path, DateTime since) =>
        new() { ["@path"] = path, ["@since"] = since };

    [Fact]
    public void Collector_query_returns_growth_events_after_since_with_exact_types()
    {
        var result = Harness().Query(CollectorQuery, Parameters(LogFolder + "log.trc", new DateTime(2026, 11, 10, 1, 30, 0)));

        Assert.Equal(2, result.Rows.Count);
        Assert.Equal(new object?[]
        {
            93, 9, "Sales", "Sales_log", new DateTime(2026, 11, 10, 2, 0, 0), new DateTime(2026, 11, 10, 2, 0, 2, 500),
            2_500_000L, 8192,
        }, result.Rows[0]);
        Assert.Equal(
            [
                ("EventClass", SqlType.Int), ("DatabaseID", SqlType.Int), ("DatabaseName", SqlType.NVarChar),
                ("FileName", SqlType.NVarChar), ("StartTime", SqlType.DateTime), ("EndTime", SqlType.DateTime),
                ("Duration", SqlType.BigInt), ("IntegerData", SqlType.Int),
            ],
            result.Columns.Select(c => (c.Name, c.Type)));
        Assert.All(result.Columns, c => Assert.True(c.Nullable));
        Assert.Equal(256, result.Column("FileName").MaxLength);
    }

    [Fact]
    public void Trace_times_are_server_local_time()
    {
        var harness = Harness(i => i.UtcOffsetMinutes = -300);

        var times = harness.Query(CollectorQuery, Parameters(LogFolder + "log.trc", new DateTime(2000, 1, 1))).ColumnValues("StartTime");

        Assert.Equal(new object?[] { new DateTime(2026, 11, 9, 20, 0, 0), new DateTime(2026, 11, 9, 21, 0, 0), new DateTime(2026, 11, 9, 22, 0, 0) }, times);
    }

    [Fact]
    public void Event_class_filter_keeps_only_the_listed_classes()
    {
        var result = Harness().Query(
            "SELECT FileName FROM fn_trace_gettable(N'" + LogFolder + "log.trc', default) WHERE EventClass IN (93)");

        Assert.Equal(new object?[] { "Sales_log" }, result.ColumnValues("FileName"));
    }

    [Theory]
    [InlineData("sys.fn_trace_gettable")]
    [InlineData("::fn_trace_gettable")]
    [InlineData("fn_trace_gettable")]
    [InlineData("master.sys.fn_trace_gettable")]
    public void Fn_trace_gettable_is_found_under_every_spelling(string name)
    {
        var result = Harness().Query($"SELECT COUNT(*) FROM {name}(N'{LogFolder}log.trc', DEFAULT)");

        Assert.Equal(3, Assert.Single(result.Rows)[0]);
    }

    [Fact]
    public void Rollover_ages_the_oldest_file_out()
    {
        var harness = Harness(i =>
        {
            i.DefaultTrace.EventsPerFile = 1;
            i.DefaultTrace.MaxFiles = 2;
        });
        var path = new Dictionary<string, object?> { ["@p"] = LogFolder + "log.trc" };
        IReadOnlyList<object?> Hours() => harness
            .Query("SELECT StartTime FROM sys.fn_trace_gettable(@p, DEFAULT) ORDER BY StartTime", path)
            .ColumnValues("StartTime").Select(t => (object?)((DateTime)t!).Hour).ToList();

        // Three events fill files 1, 2 and 3; keeping two files drops the first event.
        Assert.Equal(new object?[] { 2, 3 }, Hours());

        harness.Instance.RollDefaultTraceOver();
        Assert.Equal(new object?[] { 3 }, Hours());

        harness.Instance.AppendGrowthEvent(Growth(4));
        Assert.Equal(new object?[] { 3, 4 }, Hours());
        Assert.Equal(LogFolder + "log_4.trc", harness.Scalar("SELECT path FROM sys.traces"));
    }

    [Fact]
    public void Full_files_roll_over_by_event_count_and_the_current_path_follows()
    {
        var harness = Harness(i => i.DefaultTrace.EventsPerFile = 2);

        Assert.Equal(LogFolder + "log_2.trc", harness.Scalar("SELECT path FROM sys.traces"));
        harness.Instance.AppendGrowthEvent(Growth(5));
        Assert.Equal(LogFolder + "log_2.trc", harness.Scalar("SELECT path FROM sys.traces"));
        harness.Instance.AppendGrowthEvent(Growth(6));
        Assert.Equal(LogFolder + "log_3.trc", harness.Scalar("SELECT path FROM sys.traces"));
    }

    [Fact]
    public void A_named_rollover_file_reads_from_that_file_on_and_number_files_limits_it()
    {
        var harness = Harness(i => i.DefaultTrace.EventsPerFile = 1);

        Assert.Equal(2, harness.Scalar($"SELECT COUNT(*) FROM sys.fn_trace_gettable(N'{LogFolder}log_2.trc', DEFAULT)"));
        Assert.Equal(1, harness.Scalar($"SELECT COUNT(*) FROM sys.fn_trace_gettable(N'{LogFolder}log_2.trc', 1)"));
    }

    [Theory]
    [InlineData(@"C:\Temp\log.trc")]
    [InlineData(LogFolder + "log_99.trc")]
    public void A_path_that_is_no_trace_file_answers_19049(string path)
    {
        var harness = Harness();

        var error = Assert.Single(harness.Errors($"SELECT EventClass FROM sys.fn_trace_gettable(N'{path}', DEFAULT)"));

        Assert.Equal((19049, (byte)16), (error.Number, error.Severity));
        Assert.Contains(path, error.Text);
        Assert.Empty(harness.Log);
    }

    [Fact]
    public void Paths_on_windows_match_without_regard_to_case()
    {
        Assert.Equal(3, Harness().Scalar($"SELECT COUNT(*) FROM sys.fn_trace_gettable(N'{LogFolder.ToUpperInvariant()}LOG.TRC', DEFAULT)"));
    }

    [Fact]
    public void Linux_trace_files_live_under_var_opt_mssql_log()
    {
        var harness = Harness(i => i.Platform = "Linux", "2022");

        Assert.Equal(3, harness.Scalar("SELECT COUNT(*) FROM sys.fn_trace_gettable(N'/var/opt/mssql/log/log.trc', DEFAULT)"));
    }

    [Fact]
    public void Disabled_default_trace_leaves_no_file_to_read()
    {
        var harness = Harness(i => i.DefaultTrace.Enabled = false);

        Assert.Equal(19049, Assert.Single(harness.Errors($"SELECT * FROM sys.fn_trace_gettable(N'{LogFolder}log.trc', DEFAULT)")).Number);
    }

    [Fact]
    public void Fn_trace_gettable_without_alter_trace_answers_8189()
    {
        var harness = Harness(permissions: "VIEW SERVER STATE");

        var error = Assert.Single(harness.Errors($"SELECT * FROM sys.fn_trace_gettable(N'{LogFolder}log.trc', DEFAULT)"));

        Assert.Equal((8189, (byte)14, "You do not have permission to run 'FN_TRACE_GETTABLE'."), (error.Number, error.Severity, error.Text));
    }

    [Fact]
    public void Fn_trace_gettable_does_not_exist_on_azure_sql_database()
    {
        var harness = Harness(profile: "azure-sql-db");

        Assert.Equal(208, Assert.Single(harness.Errors("SELECT * FROM sys.fn_trace_gettable(N'x', DEFAULT)")).Number);
        Assert.Empty(harness.Log);
    }

    [Fact]
    public void Fn_trace_gettable_needs_both_arguments()
    {
        Assert.Equal(216, Assert.Single(Harness().Errors("SELECT * FROM sys.fn_trace_gettable(N'x')")).Number);
    }

    [Fact]
    public void Who_caused_the_growth_is_reported_and_system_sessions_are_flagged()
    {
        var harness = Harness(i => i.GrowthEvents =
        [
            new ScenarioGrowthEvent
            {
                Database = "Sales", FileName = "Sales", StartTime = Day, Spid = 63, ApplicationName = "OrderService",
                HostName = "APP07", LoginName = "orders_rw",
            },
            new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Day.AddHours(1), Spid = 12 },
        ]);

        var rows = harness.Query(
            $"SELECT SPID, ApplicationName, HostName, LoginName, IsSystem FROM sys.fn_trace_gettable(N'{LogFolder}log.trc', DEFAULT) ORDER BY StartTime").Rows;

        Assert.Equal(new object?[] { 63, "OrderService", "APP07", "orders_rw", null }, rows[0]);
        Assert.Equal(new object?[] { 12, null, null, null, 1 }, rows[1]);
    }

    [Fact]
    public void Start_times_are_rounded_to_datetime_precision()
    {
        var harness = Harness(i => i.GrowthEvents =
            [new ScenarioGrowthEvent { Database = "Sales", FileName = "Sales", StartTime = Day.AddMilliseconds(2) }]);

        var start = (DateTime)harness.Scalar($"SELECT StartTime FROM sys.fn_trace_gettable(N'{LogFolder}log.trc', DEFAULT)")!;

        // datetime counts 1/300 seconds: 2 ms becomes one tick of 3.33 ms.
        Assert.Equal(Day.UtcDateTime.AddTicks(TimeSpan.TicksPerSecond / 300), start);
    }
}

using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class DefaultTraceTests
{
    private const string TraceQuery = "SELECT id, path, max_size, max_files, is_rollover, is_default, status FROM sys.traces WHERE is_default = 1";

    [Theory]
    [InlineData("id", SqlType.Int, 0, false)]
    [InlineData("status", SqlType.Int, 0, false)]
    [InlineData("path", SqlType.NVarChar, 260, true)]
    [InlineData("max_size", SqlType.BigInt, 0, true)]
    [InlineData("max_files", SqlType.Int, 0, true)]
    [InlineData("is_rowset", SqlType.Bit, 0, false)]
    [InlineData("is_rollover", SqlType.Bit, 0, false)]
    [InlineData("is_shutdown", SqlType.Bit, 0, false)]
    [InlineData("is_default", SqlType.Bit, 0, false)]
    [InlineData("start_time", SqlType.DateTime, 0, true)]
    [InlineData("last_event_time", SqlType.DateTime, 0, true)]
    [InlineData("event_count", SqlType.BigInt, 0, true)]
    [InlineData("dropped_event_count", SqlType.Int, 0, true)]
    public void Traces_columns_are_typed_as_the_reference_says(string name, SqlType type, int maxLength, bool nullable)
    {
        var column = new EngineHarness("2019").Query("SELECT * FROM sys.traces").Column(name);

        Assert.Equal((type, maxLength, nullable), (column.Type, column.MaxLength, column.Nullable));
    }

    [Fact]
    public void Default_trace_row_points_at_the_current_rollover_file()
    {
        var harness = new EngineHarness("2019", i => i.DefaultTrace.FirstFileNumber = 123);

        var row = Assert.Single(harness.Query(TraceQuery).Rows);

        Assert.Equal(new object?[]
        {
            1, @"C:\Program Files\Microsoft SQL Server\MSSQL15.MSSQLSERVER\MSSQL\Log\log_123.trc", 20L, 5, true, true, 1,
        }, row);
    }

    [Fact]
    public void Default_trace_path_on_a_named_linux_instance_uses_the_linux_log_folder()
    {
        var harness = new EngineHarness("2022", i => i.Platform = "Linux");

        Assert.Equal("/var/opt/mssql/log/log_1.trc", harness.Scalar("SELECT path FROM sys.traces"));
    }

    [Fact]
    public void Default_trace_path_names_the_instance_folder_of_a_named_instance()
    {
        var harness = new EngineHarness("2017", i => i.InstanceName = "SALES");

        Assert.Equal(@"C:\Program Files\Microsoft SQL Server\MSSQL14.SALES\MSSQL\Log\log_1.trc", harness.Scalar("SELECT path FROM sys.traces"));
    }

    [Fact]
    public void Disabled_default_trace_has_no_row_and_configuration_says_0()
    {
        var harness = new EngineHarness("2019", i => i.DefaultTrace.Enabled = false);

        Assert.Empty(harness.Query(TraceQuery).Rows);
        Assert.Equal(0, harness.Scalar(
            "SELECT CAST(value_in_use AS int) FROM sys.configurations WHERE name = N'default trace enabled'"));
    }

    [Fact]
    public void Default_trace_configuration_is_a_sql_variant_int_of_1_by_default()
    {
        var result = new EngineHarness("2019").Query(
            "SELECT configuration_id, name, value, value_in_use FROM sys.configurations WHERE configuration_id = 1568");

        var row = Assert.Single(result.Rows);
        Assert.Equal(new object?[] { 1568, "default trace enabled" }, row[..2]);
        Assert.Equal(new VariantValue(SqlType.Int, 1), row[3]);
        Assert.Equal((SqlType.SqlVariant, SqlType.NVarChar, 35), (result.Column("value").Type, result.Column("name").Type,
            result.Column("name").MaxLength));
    }

    [Fact]
    public void Traces_without_alter_trace_answer_8189_and_the_batch_goes_on()
    {
        var harness = new EngineHarness("2019", permissions: "VIEW SERVER STATE");

        var items = harness.Run("SELECT path FROM sys.traces; SELECT 1 AS next").Items;

        var error = Assert.IsType<SqlMessage>(items[0]);
        Assert.Equal((8189, (byte)14, "You do not have permission to run 'SYS.TRACES'."), (error.Number, error.Severity, error.Text));
        Assert.IsType<ResultSet>(items[1]);
        Assert.Empty(harness.Log);
    }

    [Theory]
    [InlineData("ALTER TRACE")]
    [InlineData("CONTROL SERVER")]
    [InlineData("sysadmin")]
    public void Traces_are_readable_with_alter_trace_or_above(string permission)
    {
        Assert.Single(new EngineHarness("2019", permissions: permission).Query(TraceQuery).Rows);
    }

    [Fact]
    public void Traces_do_not_exist_on_azure_sql_database()
    {
        var error = Assert.Single(new EngineHarness("azure-sql-db").Errors("SELECT path FROM sys.traces"));

        Assert.Equal(208, error.Number);
    }

    [Fact]
    public void Trace_counts_events_and_reports_the_last_in_local_time()
    {
        var harness = new EngineHarness("2019", i =>
        {
            i.UtcOffsetMinutes = 60;
            i.LastStartupTime = new DateTimeOffset(2026, 11, 1, 6, 0, 0, TimeSpan.Zero);
            i.GrowthEvents =
            [
                new ScenarioGrowthEvent { Database = "tempdb", FileName = "tempdev", StartTime = new DateTimeOffset(2026, 11, 2, 8, 0, 0, TimeSpan.Zero) },
                new ScenarioGrowthEvent { Database = "tempdb", FileName = "templog", StartTime = new DateTimeOffset(2026, 11, 3, 9, 30, 0, TimeSpan.Zero) },
            ];
        });

        var row = Assert.Single(harness.Query("SELECT start_time, last_event_time, event_count FROM sys.traces").Rows);

        Assert.Equal(new object?[] { new DateTime(2026, 11, 1, 7, 0, 0), new DateTime(2026, 11, 3, 10, 30, 0), 2L }, row);
    }
}

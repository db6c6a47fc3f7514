using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class ReadErrorLogTests
{
    private static readonly DateTimeOffset Started = new(2026, 11, 1, 6, 0, 0, TimeSpan.Zero);

    private static void WithZeroing(ScenarioInstance instance)
    {
        instance.LastStartupTime = Started;
        instance.UtcOffsetMinutes = 120;
        instance.ErrorLogZeroing =
        [
            new ScenarioZeroingEntry
            {
                Time = Started.AddDays(2), PhysicalName = @"L:\Log\Sales_log.ldf", FromPage = 2560, ToPage = 3200, ElapsedMs = 410,
            },
            new ScenarioZeroingEntry { Time = Started.AddDays(-3), PhysicalName = @"D:\Data\Old.mdf", FromPage = 1, ToPage = 63 },
        ];
    }

    [Fact]
    public void Zeroing_search_returns_both_lines_of_a_zeroing_in_local_time()
    {
        var result = new EngineHarness("2019", WithZeroing).Query("EXEC sp_readerrorlog 0, 1, N'Zeroing'");

        Assert.Equal(
            [
                "Zeroing L:\\Log\\Sales_log.ldf from page 2560 to 3200 (0x1400000 to 0x1900000)",
                "Zeroing completed on L:\\Log\\Sales_log.ldf (elapsed = 410 ms)",
            ],
            result.ColumnValues("Text"));
        Assert.Equal(new object?[] { new DateTime(2026, 11, 3, 8, 0, 0), new DateTime(2026, 11, 3, 8, 0, 0, 410) },
            result.ColumnValues("LogDate"));
        Assert.Equal("spid57", result.Rows[0][1]);
    }

    [Fact]
    public void Error_log_columns_are_log_date_process_info_and_text()
    {
        var result = new EngineHarness("2019").Query("EXECUTE sp_readerrorlog 0, 1, N'Zeroing'");

        Assert.Equal(
            [("LogDate", SqlType.DateTime, 0), ("ProcessInfo", SqlType.NVarChar, 50), ("Text", SqlType.NVarChar, 4000)],
            result.Columns.Select(c => (c.Name, c.Type, c.MaxLength)));
        Assert.Empty(result.Rows);
    }

    [Fact]
    public void Zeroing_from_before_the_last_start_is_in_the_archived_log_without_elapsed_time()
    {
        var result = new EngineHarness("2019", WithZeroing).Query("EXEC master.dbo.sp_readerrorlog 1, 1, N'Zeroing'");

        Assert.Equal(["Zeroing D:\\Data\\Old.mdf from page 1 to 63 (0x2000 to 0x7e000)", "Zeroing completed on D:\\Data\\Old.mdf"],
            result.ColumnValues("Text"));
    }

    [Theory]
    [InlineData(true, "enabled")]
    [InlineData(false, "disabled")]
    public void Startup_line_reports_instant_file_initialization(bool ifi, string state)
    {
        var harness = new EngineHarness("2022", i => i.IfiEnabled = ifi);

        var text = (string)harness.Query("EXEC sp_readerrorlog 0, 1, N'Instant File Initialization'").Rows.Single()[2]!;

        Assert.Equal(
            $"Database Instant File Initialization: {state}. For security and performance considerations see the topic " +
            "'Database Instant File Initialization' in SQL Server Books Online. This is an informational message only. " +
            "No user action is required.", text);
    }

    [Theory]
    [InlineData("2012-SP3", 0)]
    [InlineData("2012-SP4", 1)]
    [InlineData("2014-SP2", 1)]
    [InlineData("2016-RTM", 1)]
    public void Only_builds_that_write_the_ifi_startup_line_have_it(string profile, int lines)
    {
        var result = new EngineHarness(profile).Query("EXEC sp_readerrorlog 0, 1, N'Instant File Initialization'");

        Assert.Equal(lines, result.Rows.Count);
    }

    [Fact]
    public void Both_search_strings_must_match_and_parameters_are_accepted()
    {
        var harness = new EngineHarness("2019", WithZeroing);
        var parameters = new Dictionary<string, object?> { ["@log"] = 0, ["@a"] = "zeroing", ["@b"] = "elapsed" };

        var result = harness.Query("EXEC sp_readerrorlog @log, 1, @a, @b", parameters);

        Assert.Equal(["Zeroing completed on L:\\Log\\Sales_log.ldf (elapsed = 410 ms)"], result.ColumnValues("Text"));
    }

    [Fact]
    public void Agent_log_has_no_zeroing_lines()
    {
        Assert.Empty(new EngineHarness("2019", WithZeroing).Query("EXEC sp_readerrorlog 0, 2, N'Zeroing'").Rows);
    }

    [Theory]
    [InlineData("2019", "VIEW SERVER STATE", true)]
    [InlineData("2019", "ALTER TRACE", false)]
    [InlineData("2022", "VIEW ANY ERROR LOG", true)]
    [InlineData("2022", "VIEW SERVER SECURITY STATE", false)]
    [InlineData("2022", "securityadmin", true)]
    public void Error_log_needs_the_permission_of_the_build(string profile, string permission, bool allowed)
    {
        var items = new EngineHarness(profile, permissions: permission).Run("EXEC sp_readerrorlog 0, 1, N'Zeroing'").Items;

        if (allowed)
        {
            Assert.IsType<ResultSet>(Assert.Single(items));
        }
        else
        {
            var error = Assert.IsType<SqlMessage>(Assert.Single(items));
            Assert.Equal((15003, (byte)16), (error.Number, error.Severity));
        }
    }

    [Fact]
    public void After_sp_cycle_errorlog_the_startup_line_is_in_the_archive_and_newer_logs_say_reinitialized()
    {
        var harness = new EngineHarness("2016-RTM", i => i.ErrorLogCyclesSinceStartup = 2);

        Assert.Empty(harness.Query("EXEC sp_readerrorlog 0, 1, N'Instant File Initialization'").Rows);
        Assert.Contains("reinitialized", (string)Assert.Single(harness.Query("EXEC sp_readerrorlog 1").Rows)[2]!, StringComparison.Ordinal);
        Assert.Single(harness.Query("EXEC sp_readerrorlog 2, 1, N'Instant File Initialization'").Rows);
    }

    [Fact]
    public void Log_number_beyond_the_archives_kept_is_an_error()
    {
        var error = Assert.Single(new EngineHarness("2019", i => i.ErrorLogArchives = 6).Errors("EXEC sp_readerrorlog 7"));

        Assert.Equal(22004, error.Number);
    }

    [Theory]
    [InlineData(ReadErrorLogCheck.DocumentedPermission, "VIEW SERVER STATE", true)]
    [InlineData(ReadErrorLogCheck.SecurityAdminRole, "VIEW SERVER STATE", false)]
    [InlineData(ReadErrorLogCheck.SecurityAdminRole, "securityadmin", true)]
    public void Before_2022_the_scenario_picks_the_documented_check_or_the_procedure_body(ReadErrorLogCheck check, string permission, bool allowed)
    {
        var items = new EngineHarness("2014-SP2", i => i.ReadErrorLogCheck = check, permission).Run("EXEC sp_readerrorlog 0").Items;

        Assert.Equal(allowed ? null : 15003, (items.Single() as SqlMessage)?.Number);
    }

    [Theory]
    [InlineData("EXECUTE ON xp_readerrorlog", true)]
    [InlineData("VIEW SERVER STATE", false)]
    public void Xp_readerrorlog_needs_execute_on_itself(string permission, bool allowed)
    {
        var items = new EngineHarness("2014-SP2", permissions: permission)
            .Run("EXEC master.sys.xp_readerrorlog 0, 1, N'Database Instant File Initialization'").Items;

        if (allowed)
            Assert.Single(Assert.IsType<ResultSet>(Assert.Single(items)).Rows);
        else
            Assert.Equal(229, Assert.IsType<SqlMessage>(Assert.Single(items)).Number);
    }

    [Fact]
    public void Error_log_procedure_does_not_exist_on_azure_sql_database()
    {
        var harness = new EngineHarness("azure-sql-db");

        var error = Assert.Single(harness.Errors("EXEC sp_readerrorlog 0, 1, N'Zeroing'"));

        Assert.Equal((2812, "Could not find stored procedure 'sp_readerrorlog'."), (error.Number, error.Text));
        Assert.Empty(harness.Log);
    }

    [Fact]
    public void Error_log_takes_at_most_four_arguments()
    {
        Assert.Equal(8144, Assert.Single(new EngineHarness().Errors("EXEC sp_readerrorlog 0, 1, N'a', N'b', N'c'")).Number);
    }

    [Fact]
    public void Exec_is_a_statement_of_its_own_inside_a_batch()
    {
        var items = new EngineHarness("2019", WithZeroing).Run("SET NOCOUNT ON; EXEC sp_readerrorlog 0, 1, N'Zeroing' SELECT 1 AS after").Items;

        Assert.Equal(3, items.Count);
        Assert.Equal(2, Assert.IsType<ResultSet>(items[1]).Rows.Count);
        Assert.IsType<ResultSet>(items[2]);
    }
}

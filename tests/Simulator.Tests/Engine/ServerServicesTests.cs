using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class ServerServicesTests
{
    private const string IfiColumn = "instant_file_initialization_enabled";

    private static readonly string[] BaseColumns =
    [
        "servicename", "startup_type", "startup_type_desc", "status", "status_desc", "process_id",
        "last_startup_time", "service_account", "filename", "is_clustered", "cluster_nodename",
    ];

    [Theory]
    [InlineData("2012-SP3", false)]
    [InlineData("2012-SP4", true)]
    [InlineData("2014-SP2", false)]
    [InlineData("2014-SP3", true)]
    [InlineData("2016-RTM", false)]
    [InlineData("2016-SP1", true)]
    [InlineData("2017", true)]
    [InlineData("2019", true)]
    [InlineData("2022", true)]
    [InlineData("2025", true)]
    public void Services_columns_follow_the_version_profile(string profile, bool hasIfiColumn)
    {
        var result = new EngineHarness(profile).Query("SELECT * FROM sys.dm_server_services");

        string[] expected = hasIfiColumn ? [.. BaseColumns, IfiColumn] : BaseColumns;
        Assert.Equal(expected, result.Columns.Select(c => c.Name));
    }

    [Theory]
    [InlineData("servicename", SqlType.NVarChar, 256, false)]
    [InlineData("startup_type", SqlType.Int, 0, true)]
    [InlineData("startup_type_desc", SqlType.NVarChar, 256, false)]
    [InlineData("status", SqlType.Int, 0, true)]
    [InlineData("status_desc", SqlType.NVarChar, 256, false)]
    [InlineData("process_id", SqlType.Int, 0, false)]
    [InlineData("last_startup_time", SqlType.DateTimeOffset, 0, true)]
    [InlineData("service_account", SqlType.NVarChar, 256, false)]
    [InlineData("filename", SqlType.NVarChar, 256, false)]
    [InlineData("is_clustered", SqlType.NVarChar, 1, false)]
    [InlineData("cluster_nodename", SqlType.NVarChar, 256, true)]
    [InlineData(IfiColumn, SqlType.NVarChar, 1, true)]
    public void Services_columns_are_typed_as_the_reference_says(string name, SqlType type, int maxLength, bool nullable)
    {
        var column = new EngineHarness("2022").Query("SELECT * FROM sys.dm_server_services").Column(name);

        Assert.Equal((type, maxLength, nullable), (column.Type, column.MaxLength, column.Nullable));
    }

    [Fact]
    public void Services_last_startup_time_is_a_datetimeoffset_7_with_the_instance_start()
    {
        var start = new DateTimeOffset(2026, 10, 30, 22, 15, 0, TimeSpan.FromHours(2));
        var harness = new EngineHarness("2019", i => i.LastStartupTime = start);

        var result = harness.Query("SELECT last_startup_time FROM sys.dm_server_services WHERE servicename = N'SQL Server (MSSQLSERVER)'");

        Assert.Equal(7, result.Columns[0].Scale);
        Assert.Equal(start, Assert.Single(result.Rows)[0]);
    }

    [Theory]
    [InlineData("2012-SP3")]
    [InlineData("2014-SP2")]
    [InlineData("2016-RTM")]
    public void Services_on_builds_before_the_ifi_column_reject_it_with_error_207(string profile)
    {
        var harness = new EngineHarness(profile);

        var errors = harness.Errors("SELECT servicename, instant_file_initialization_enabled FROM sys.dm_server_services");

        var error = Assert.Single(errors);
        Assert.Equal((207, (byte)16, "Invalid column name 'instant_file_initialization_enabled'."),
            (error.Number, error.Severity, error.Text));
        Assert.Empty(harness.Log);
    }

    [Fact]
    public void Services_on_2012_SP3_reject_the_ifi_column_with_error_207_even_without_permission()
    {
        // Binding happens before the permission check, so the build, not the login, decides the error.
        var harness = new EngineHarness("2012-SP3", permissions: "VIEW ANY DATABASE");

        var error = Assert.Single(harness.Errors($"SELECT {IfiColumn} FROM sys.dm_server_services"));

        Assert.Equal(207, error.Number);
    }

    [Theory]
    [InlineData(true, "Y")]
    [InlineData(false, "N")]
    public void Services_report_ifi_on_the_engine_row_and_N_on_the_others(bool ifiEnabled, string engineValue)
    {
        var harness = new EngineHarness("2019", i => i.IfiEnabled = ifiEnabled);

        var engine = harness.Scalar(
            $"SELECT {IfiColumn} FROM sys.dm_server_services WHERE process_id = SERVERPROPERTY('ProcessID')");
        var others = harness.Query(
            $"SELECT {IfiColumn} FROM sys.dm_server_services WHERE process_id <> CAST(SERVERPROPERTY('ProcessID') AS int)");

        Assert.Equal(engineValue, engine);
        Assert.Equal(3, others.Rows.Count);
        Assert.All(others.Rows, r => Assert.Equal("N", r[0]));
    }

    [Theory]
    [InlineData("2014-SP3", new[] { "SQL Server (MSSQLSERVER)", "SQL Server Agent (MSSQLSERVER)" })]
    [InlineData("2016-SP1", new[] { "SQL Server (MSSQLSERVER)", "SQL Server Agent (MSSQLSERVER)",
        "SQL Full-text Filter Daemon Launcher (MSSQLSERVER)" })]
    [InlineData("2019", new[] { "SQL Server (MSSQLSERVER)", "SQL Server Agent (MSSQLSERVER)",
        "SQL Full-text Filter Daemon Launcher (MSSQLSERVER)", "SQL Server Launchpad (MSSQLSERVER)" })]
    public void Services_on_windows_add_full_text_from_2016_and_launchpad_from_2017(string profile, string[] expected)
    {
        var result = new EngineHarness(profile).Query("SELECT servicename FROM sys.dm_server_services");

        Assert.Equal(expected, result.ColumnValues("servicename"));
    }

    [Fact]
    public void Services_of_a_named_instance_carry_the_instance_name()
    {
        var harness = new EngineHarness("2019", i => i.InstanceName = "SQL2019");

        var names = harness.Query("SELECT servicename FROM sys.dm_server_services WHERE servicename LIKE 'SQL Server (%'")
            .ColumnValues("servicename");

        Assert.Equal(new object?[] { "SQL Server (SQL2019)" }, names);
    }

    [Fact]
    public void Services_on_linux_report_LocalSystem_and_sqlservr_for_every_row()
    {
        var harness = new EngineHarness("2019", i =>
        {
            i.Platform = "Linux";
            i.ServiceAccount = "mssql";
        });

        var result = harness.Query("SELECT servicename, service_account, filename FROM sys.dm_server_services");

        Assert.Equal(2, result.Rows.Count);
        Assert.All(result.ColumnValues("service_account"), v => Assert.Equal("LocalSystem", v));
        Assert.All(result.ColumnValues("filename"), v => Assert.Equal("/opt/mssql/bin/sqlservr", v));
    }

    [Fact]
    public void Services_on_windows_report_the_configured_accounts()
    {
        var harness = new EngineHarness("2014-SP3", i =>
        {
            i.ServiceAccount = @"CORP\svc-sql";
            i.AgentServiceAccount = @"CORP\svc-agent";
        });

        var accounts = harness.Query("SELECT service_account FROM sys.dm_server_services").ColumnValues("service_account");

        Assert.Equal(new object?[] { @"CORP\svc-sql", @"CORP\svc-agent" }, accounts);
    }

    [Theory]
    [InlineData("2019", "VIEW ANY DATABASE", "VIEW SERVER STATE")]
    [InlineData("2012-SP4", "ALTER TRACE", "VIEW SERVER STATE")]
    [InlineData("2022", "VIEW SERVER STATE", "VIEW SERVER SECURITY STATE")]
    [InlineData("2025", "VIEW SERVER PERFORMANCE STATE", "VIEW SERVER SECURITY STATE")]
    public void Services_without_the_permission_answer_300_then_297(string profile, string granted, string named)
    {
        var harness = new EngineHarness(profile, permissions: granted);

        var errors = harness.Errors("SELECT servicename FROM sys.dm_server_services");

        Assert.Collection(errors,
            e => Assert.Equal((300, (byte)14, $"{named} permission was denied on object 'server', database 'master'."),
                (e.Number, e.Severity, e.Text)),
            e => Assert.Equal((297, (byte)16, "The user does not have permission to perform this action."),
                (e.Number, e.Severity, e.Text)));
        Assert.Empty(harness.Log);
    }

    [Theory]
    [InlineData("2019", "VIEW SERVER STATE")]
    [InlineData("2019", "view server state")]
    [InlineData("2022", "VIEW SERVER SECURITY STATE")]
    [InlineData("2022", "CONTROL SERVER")]
    [InlineData("2012-SP3", "sysadmin")]
    public void Services_are_readable_with_the_permission_the_version_needs(string profile, string granted)
    {
        var result = new EngineHarness(profile, permissions: granted).Query("SELECT servicename FROM sys.dm_server_services");

        Assert.NotEmpty(result.Rows);
    }

    [Fact]
    public void Services_on_azure_sql_database_answer_208()
    {
        var harness = new EngineHarness("azure-sql-db");

        var error = Assert.Single(harness.Errors("SELECT servicename FROM sys.dm_server_services"));

        Assert.Equal((208, (byte)16, "Invalid object name 'sys.dm_server_services'."), (error.Number, error.Severity, error.Text));
        Assert.Empty(harness.Log);
    }
}

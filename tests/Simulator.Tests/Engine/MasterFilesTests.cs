using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class MasterFilesTests
{
    [Theory]
    [InlineData("database_id", SqlType.Int, 0, false)]
    [InlineData("file_id", SqlType.Int, 0, false)]
    [InlineData("type", SqlType.TinyInt, 0, false)]
    [InlineData("type_desc", SqlType.NVarChar, 60, true)]
    [InlineData("name", SqlType.NVarChar, 128, false)]
    [InlineData("physical_name", SqlType.NVarChar, 260, false)]
    [InlineData("state", SqlType.TinyInt, 0, true)]
    [InlineData("state_desc", SqlType.NVarChar, 60, true)]
    [InlineData("size", SqlType.Int, 0, false)]
    [InlineData("max_size", SqlType.Int, 0, false)]
    [InlineData("growth", SqlType.Int, 0, false)]
    [InlineData("is_percent_growth", SqlType.Bit, 0, false)]
    public void Master_files_columns_are_typed_as_the_reference_says(string name, SqlType type, int maxLength, bool nullable)
    {
        var column = new EngineHarness("2019").Query("SELECT * FROM sys.master_files").Column(name);

        Assert.Equal((type, maxLength, nullable), (column.Type, column.MaxLength, column.Nullable));
    }

    [Fact]
    public void Master_files_without_scenario_databases_lists_the_system_database_files()
    {
        var result = new EngineHarness("2019").Query(
            "SELECT database_id, file_id, name, physical_name, type_desc FROM sys.master_files ORDER BY database_id, file_id");

        Assert.Equal(new object?[] { "master", "mastlog", "tempdev", "templog", "modeldev", "modellog", "MSDBData", "MSDBLog" },
            result.ColumnValues("name"));
        Assert.Equal(@"C:\Program Files\Microsoft SQL Server\MSSQL15.MSSQLSERVER\MSSQL\DATA\master.mdf", result.Rows[0][3]);
        Assert.Equal(new object?[] { "ROWS", "LOG" }, result.ColumnValues("type_desc").Distinct());
    }

    [Fact]
    public void Master_files_on_linux_use_the_linux_data_directory()
    {
        var harness = new EngineHarness("2022", i => i.Platform = "Linux");

        var paths = harness.Query("SELECT physical_name FROM sys.master_files").ColumnValues("physical_name");

        Assert.All(paths, p => Assert.StartsWith("/var/opt/mssql/data/", (string)p!));
    }

    [Fact]
    public void Master_files_report_scenario_files_with_sizes_in_pages_and_numbered_ids()
    {
        var harness = new EngineHarness("2019", i => i.Databases =
        [
            new ScenarioDatabase
            {
                Name = "Sales",
                Files =
                [
                    new() { Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 128000, Growth = 8192 },
                    new()
                    {
                        Name = "Sales_log", PhysicalName = @"L:\Log\Sales_log.ldf", Type = DatabaseFileType.Log,
                        SizePages = 64000, Growth = 10, IsPercentGrowth = true, MaxSizePages = 268435456,
                    },
                    new() { Name = "Sales2", PhysicalName = @"E:\Data\Sales2.ndf", SizePages = 1024, MaxSizePages = 0, Growth = 0 },
                ],
            },
        ]);

        var rows = harness.Query(
            "SELECT file_id, type, name, size, max_size, growth, is_percent_growth FROM sys.master_files WHERE database_id = 5 ORDER BY file_id").Rows;

        Assert.Equal(new object?[] { 1, (byte)0, "Sales", 128000, -1, 8192, false }, rows[0]);
        Assert.Equal(new object?[] { 2, (byte)1, "Sales_log", 64000, 268435456, 10, true }, rows[1]);
        Assert.Equal(new object?[] { 3, (byte)0, "Sales2", 1024, 0, 0, false }, rows[2]);
    }

    [Fact]
    public void Master_files_hide_other_databases_from_a_login_without_metadata_permission()
    {
        var harness = new EngineHarness("2019", permissions: "VIEW SERVER STATE");

        Assert.Equal([1, 2], harness.Query("SELECT database_id FROM sys.master_files").ColumnValues("database_id").Cast<int>().Distinct());
        Assert.Equal(4, new EngineHarness("2019", permissions: "VIEW ANY DEFINITION").Query("SELECT database_id FROM sys.master_files")
            .ColumnValues("database_id").Distinct().Count());
    }

    [Fact]
    public void Databases_name_the_source_of_a_snapshot_whose_files_are_sparse()
    {
        var harness = new EngineHarness("2019", i => i.Databases =
        [
            new ScenarioDatabase { Name = "Sales", Id = 5 },
            new ScenarioDatabase { Name = "Sales_snap", Id = 6, SnapshotOf = "Sales" },
        ]);

        Assert.Equal([null, null, null, null, null, 5],
            harness.Query("SELECT source_database_id FROM sys.databases").ColumnValues("source_database_id"));
        Assert.Equal([true, true], harness.Query("SELECT is_sparse FROM sys.master_files WHERE database_id = 6").ColumnValues("is_sparse"));
    }

    [Fact]
    public void Master_files_do_not_exist_on_azure_sql_database()
    {
        var harness = new EngineHarness("azure-sql-db");

        var error = Assert.Single(harness.Errors("SELECT name FROM sys.master_files"));

        Assert.Equal((208, "Invalid object name 'sys.master_files'."), (error.Number, error.Text));
        Assert.Empty(harness.Log);
    }

    [Fact]
    public void Databases_report_recovery_model_and_encryption_of_scenario_databases()
    {
        var harness = new EngineHarness("2019", i => i.Databases =
        [
            new ScenarioDatabase { Name = "Payroll", EncryptionState = 3 },
            new ScenarioDatabase { Name = "Scratch", RecoveryModel = "simple" },
        ]);

        var result = harness.Query("SELECT name, database_id, recovery_model_desc, is_encrypted FROM sys.databases ORDER BY database_id");

        Assert.Equal(new object?[] { "master", "tempdb", "model", "msdb", "Payroll", "Scratch" }, result.ColumnValues("name"));
        Assert.Equal(new object?[] { "Payroll", 5, "FULL", true }, result.Rows[4]);
        Assert.Equal(new object?[] { "Scratch", 6, "SIMPLE", false }, result.Rows[5]);
        Assert.Equal(new object?[] { "SIMPLE", "SIMPLE", "FULL", "SIMPLE" }, result.ColumnValues("recovery_model_desc").Take(4));
        Assert.Equal((SqlType.Bit, true), (result.Column("is_encrypted").Type, result.Column("is_encrypted").Nullable));
    }

    [Fact]
    public void Db_name_and_db_id_know_scenario_databases()
    {
        var harness = new EngineHarness("2019", i => i.Databases = [new ScenarioDatabase { Name = "Sales", Id = 7 }]);

        var row = Assert.Single(harness.Query("SELECT DB_NAME(7), DB_ID(N'Sales'), DB_ID(N'nope')").Rows);

        Assert.Equal(new object?[] { "Sales", (short)7, null }, row);
    }
}

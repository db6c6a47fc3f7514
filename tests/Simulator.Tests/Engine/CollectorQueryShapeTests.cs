using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

/// <summary>The statement shapes the collector's probes send, run as they are written.</summary>
public sealed class CollectorQueryShapeTests
{
    private static EngineHarness Harness() => new("2022", i =>
    {
        i.Databases = [new ScenarioDatabase { Name = "Sales", EncryptionState = 3 }];
        i.Backups =
        [
            new ScenarioBackup { Database = "Sales", Type = "D", Start = EngineHarness.Now.AddDays(-1), Finish = EngineHarness.Now.AddDays(-1).AddMinutes(5), BackupSize = 10m },
            new ScenarioBackup { Database = "Sales", Type = "L", Start = EngineHarness.Now.AddHours(-1), Finish = EngineHarness.Now.AddHours(-1), BackupSize = 1m },
            new ScenarioBackup { Database = "Sales", Type = "D", Start = EngineHarness.Now.AddDays(-40), Finish = EngineHarness.Now.AddDays(-40), BackupSize = 9m },
        ];
    });

    [Fact]
    public void Files_probe_names_each_database_through_db_name()
    {
        var result = Harness().Query(
            "SELECT database_id, DB_NAME(database_id) AS database_name, file_id, name, physical_name, type, state_desc,\n" +
            "       size, max_size, growth, is_percent_growth\nFROM sys.master_files\nWHERE is_sparse = 0;");

        Assert.Equal(10, result.Rows.Count);
        Assert.Equal(new object?[] { "master", "master", "tempdb", "tempdb", "model", "model", "msdb", "msdb", "Sales", "Sales" },
            result.ColumnValues("database_name"));
    }

    [Fact]
    public void Backups_probe_filters_full_backups_after_a_datetime_parameter()
    {
        var parameters = new Dictionary<string, object?> { ["@since"] = EngineHarness.Now.UtcDateTime.AddDays(-30) };

        var result = Harness().Query(
            "SELECT database_name, backup_finish_date, backup_size, compressed_backup_size\nFROM msdb.dbo.backupset\n" +
            "WHERE type = 'D'\n  AND backup_finish_date > @since\nORDER BY backup_finish_date DESC;", parameters);

        Assert.Equal(new object?[] { 10m }, result.ColumnValues("backup_size"));
    }

    [Fact]
    public void Encryption_and_default_trace_probes_answer()
    {
        var harness = Harness();

        Assert.Equal(2, harness.Query("SELECT database_id, encryption_state\nFROM sys.dm_database_encryption_keys;").Rows.Count);
        Assert.IsType<string>(harness.Scalar("SELECT path\nFROM sys.traces\nWHERE is_default = 1;"));
        Assert.IsType<ResultSet>(Assert.Single(harness.Run("SELECT SYSDATETIMEOFFSET() AS ServerTime;").Items));
    }
}

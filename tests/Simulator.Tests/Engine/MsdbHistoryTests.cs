using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class MsdbHistoryTests
{
    private static readonly DateTimeOffset Night = new(2026, 11, 20, 1, 0, 0, TimeSpan.Zero);

    private static void WithHistory(ScenarioInstance instance)
    {
        instance.UtcOffsetMinutes = 60;
        instance.Databases = [new ScenarioDatabase { Name = "Sales" }];
        instance.Backups =
        [
            new ScenarioBackup
            {
                Database = "Sales", Type = "D", Start = Night, Finish = Night.AddMinutes(12), BackupSize = 52_428_800_000m,
                CompressedBackupSize = 13_107_200_000m,
            },
            new ScenarioBackup { Database = "Sales", Type = "L", Start = Night.AddHours(1), Finish = Night.AddHours(1).AddSeconds(9), BackupSize = 1_048_576m },
        ];
        instance.Restores =
        [
            new ScenarioRestore { RestoreDate = Night.AddHours(3), DestinationDatabase = "Sales_copy", BackupSetId = 1, Replace = true },
        ];
    }

    [Fact]
    public void Backupset_rows_carry_sizes_in_bytes_and_local_times()
    {
        var result = new EngineHarness("2019", WithHistory).Query(
            "SELECT database_name, type, backup_start_date, backup_finish_date, backup_size, compressed_backup_size " +
            "FROM msdb.dbo.backupset WHERE database_name = N'Sales' ORDER BY backup_start_date");

        Assert.Equal(new object?[]
        {
            "Sales", "D", new DateTime(2026, 11, 20, 2, 0, 0), new DateTime(2026, 11, 20, 2, 12, 0), 52_428_800_000m, 13_107_200_000m,
        }, result.Rows[0]);
        Assert.Null(result.Rows[1][5]);
    }

    [Theory]
    [InlineData("database_name", SqlType.NVarChar, 128, 0)]
    [InlineData("type", SqlType.Char, 1, 0)]
    [InlineData("backup_start_date", SqlType.DateTime, 0, 0)]
    [InlineData("backup_finish_date", SqlType.DateTime, 0, 0)]
    [InlineData("backup_size", SqlType.Numeric, 0, 20)]
    [InlineData("compressed_backup_size", SqlType.Numeric, 0, 20)]
    public void Backupset_columns_are_typed_as_the_reference_says(string name, SqlType type, int maxLength, byte precision)
    {
        var column = new EngineHarness("2019").Query("SELECT * FROM msdb.dbo.backupset").Column(name);

        Assert.Equal((type, maxLength, precision, (byte)0, true), (column.Type, column.MaxLength, column.Precision, column.Scale, column.Nullable));
    }

    [Fact]
    public void Restorehistory_reports_completion_time_and_the_backup_set()
    {
        var result = new EngineHarness("2019", WithHistory).Query(
            "SELECT restore_date, destination_database_name, backup_set_id, restore_type, replace FROM msdb..restorehistory");

        Assert.Equal(new object?[] { new DateTime(2026, 11, 20, 5, 0, 0), "Sales_copy", 1, "D", true }, Assert.Single(result.Rows));
        Assert.Equal((SqlType.Bit, SqlType.Char, 1), (result.Column("replace").Type, result.Column("restore_type").Type,
            result.Column("restore_type").MaxLength));
    }

    [Fact]
    public void Backup_history_can_be_appended_while_running()
    {
        var harness = new EngineHarness("2019", WithHistory);

        harness.Instance.AppendBackup(new ScenarioBackup { Database = "Sales", Start = Night.AddDays(1), Finish = Night.AddDays(1), BackupSize = 1m });

        Assert.Equal(3, harness.Scalar("SELECT COUNT(*) FROM msdb.dbo.backupset"));
    }

    [Fact]
    public void Msdb_tables_need_msdb_named_or_current()
    {
        var harness = new EngineHarness("2019");

        Assert.Equal(208, Assert.Single(harness.Errors("SELECT * FROM dbo.backupset")).Number);
    }

    [Fact]
    public void Azure_sql_database_refuses_the_msdb_reference_with_40515()
    {
        var harness = new EngineHarness("azure-sql-db");

        var error = Assert.Single(harness.Errors("SELECT database_name FROM msdb.dbo.backupset"));

        Assert.Equal((40515, (byte)15), (error.Number, error.Severity));
        Assert.Contains("msdb.dbo.backupset", error.Text);
        Assert.Empty(harness.Log);
    }
}

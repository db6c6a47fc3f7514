namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>SELECT * from a view whose whole documented column list the simulator models returns that list, in order.</summary>
public sealed class DocumentedColumnsTests
{
    // "sys.master_files (Transact-SQL)": the columns in the order of the reference page's table
    // (is_persistent_log_buffer from 2017, see MasterFilesTable).
    private static readonly string[] MasterFiles =
    [
        "database_id", "file_id", "file_guid", "type", "type_desc", "data_space_id", "name", "physical_name", "state",
        "state_desc", "size", "max_size", "growth", "is_media_read_only", "is_read_only", "is_sparse", "is_percent_growth",
        "is_name_reserved", "is_persistent_log_buffer", "create_lsn", "drop_lsn", "read_only_lsn", "read_write_lsn",
        "differential_base_lsn", "differential_base_guid", "differential_base_time", "redo_start_lsn",
        "redo_start_fork_guid", "redo_target_lsn", "redo_target_fork_guid", "backup_lsn", "credential_id",
    ];

    [Fact]
    public async Task Tedious_select_star_from_master_files_returns_the_documented_columns()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await TediousClient.RunAsync(fleet["sql"].Port, TestFleet.Login, TestFleet.Password, true, "SELECT * FROM sys.master_files");

        Assert.True(result.Error is null, result.Raw);
        Assert.Equal(MasterFiles, result.Columns.Select(c => c.Name));
        // tedious names the nullable numeric token NUMERICN (0x6C) "NumericN".
        Assert.Equal(("UniqueIdentifier", "NumericN"), (result.Columns[2].Type, result.Columns[19].Type));
        Assert.NotEmpty(result.Rows);
    }

    [Fact]
    public async Task Jtds_select_star_from_master_files_returns_the_documented_columns()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await ScriptedClient.JtdsAsync(fleet["sql"].Port, "sql SELECT * FROM sys.master_files\n");

        Assert.Empty(result.Errors);
        Assert.Equal(MasterFiles, result.ResultSets[0].GetProperty("columns").EnumerateArray().Select(c => c.GetProperty("name").GetString()));
        Assert.Equal(("uniqueidentifier", "numeric"), (result.ColumnTypes(0)[2], result.ColumnTypes(0)[19]));
    }
}

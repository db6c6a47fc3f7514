using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// SELECT * from every view the simulator serves returns the view's documented columns in the documented order
/// (transcribed below from each view's reference page), through SqlClient, tedious and jTDS.
/// </summary>
public sealed class DocumentedColumnsTests
{
    private const string Learn = "https://learn.microsoft.com/sql/relational-databases/";

    /// <summary>Each view's documented columns on SQL Server 2022, which has every column the lists below name.</summary>
    public static readonly IReadOnlyDictionary<string, string[]> Documented = new Dictionary<string, string[]>
    {
        // Learn + "system-catalog-views/sys-master-files-transact-sql" (is_persistent_log_buffer from 2017, see MasterFilesTable)
        ["sys.master_files"] =
        [
            "database_id", "file_id", "file_guid", "type", "type_desc", "data_space_id", "name", "physical_name", "state",
            "state_desc", "size", "max_size", "growth", "is_media_read_only", "is_read_only", "is_sparse", "is_percent_growth",
            "is_name_reserved", "is_persistent_log_buffer", "create_lsn", "drop_lsn", "read_only_lsn", "read_write_lsn",
            "differential_base_lsn", "differential_base_guid", "differential_base_time", "redo_start_lsn",
            "redo_start_fork_guid", "redo_target_lsn", "redo_target_fork_guid", "backup_lsn", "credential_id",
        ],
        // Learn + "system-catalog-views/sys-databases-transact-sql"
        ["sys.databases"] =
        [
            "name", "database_id", "source_database_id", "owner_sid", "create_date", "compatibility_level", "collation_name",
            "user_access", "user_access_desc", "is_read_only", "is_auto_close_on", "is_auto_shrink_on", "state", "state_desc",
            "is_in_standby", "is_cleanly_shutdown", "is_supplemental_logging_enabled", "snapshot_isolation_state",
            "snapshot_isolation_state_desc", "is_read_committed_snapshot_on", "recovery_model", "recovery_model_desc",
            "page_verify_option", "page_verify_option_desc", "is_auto_create_stats_on", "is_auto_create_stats_incremental_on",
            "is_auto_update_stats_on", "is_auto_update_stats_async_on", "is_ansi_null_default_on", "is_ansi_nulls_on",
            "is_ansi_padding_on", "is_ansi_warnings_on", "is_arithabort_on", "is_concat_null_yields_null_on",
            "is_numeric_roundabort_on", "is_quoted_identifier_on", "is_recursive_triggers_on", "is_cursor_close_on_commit_on",
            "is_local_cursor_default", "is_fulltext_enabled", "is_trustworthy_on", "is_db_chaining_on",
            "is_parameterization_forced", "is_master_key_encrypted_by_server", "is_query_store_on", "is_published",
            "is_subscribed", "is_merge_published", "is_distributor", "is_sync_with_backup", "service_broker_guid",
            "is_broker_enabled", "log_reuse_wait", "log_reuse_wait_desc", "is_date_correlation_on", "is_cdc_enabled",
            "is_encrypted", "is_honor_broker_priority_on", "replica_id", "group_database_id", "resource_pool_id",
            "default_language_lcid", "default_language_name", "default_fulltext_language_lcid",
            "default_fulltext_language_name", "is_nested_triggers_on", "is_transform_noise_words_on", "two_digit_year_cutoff",
            "containment", "containment_desc", "target_recovery_time_in_seconds", "delayed_durability",
            "delayed_durability_desc", "is_memory_optimized_elevate_to_snapshot_on", "is_federation_member",
            "is_remote_data_archive_enabled", "is_mixed_page_allocation_on", "is_temporal_history_retention_enabled",
            "catalog_collation_type", "catalog_collation_type_desc", "physical_database_name", "is_result_set_caching_on",
            "is_accelerated_database_recovery_on", "is_tempdb_spill_to_remote_store", "is_stale_page_detection_on",
            "is_memory_optimized_enabled", "is_ledger_on",
        ],
        // Learn + "system-catalog-views/sys-all-columns-transact-sql"
        ["sys.all_columns"] =
        [
            "object_id", "name", "column_id", "system_type_id", "user_type_id", "max_length", "precision", "scale",
            "collation_name", "is_nullable", "is_ansi_padded", "is_rowguidcol", "is_identity", "is_computed", "is_filestream",
            "is_replicated", "is_non_sql_subscribed", "is_merge_published", "is_dts_replicated", "is_xml_document",
            "xml_collection_id", "default_object_id", "rule_object_id", "is_sparse", "is_column_set", "generated_always_type",
            "generated_always_type_desc",
        ],
        // Learn + "system-dynamic-management-views/sys-dm-server-services-transact-sql"
        ["sys.dm_server_services"] =
        [
            "servicename", "startup_type", "startup_type_desc", "status", "status_desc", "process_id", "last_startup_time",
            "service_account", "filename", "is_clustered", "cluster_nodename", "instant_file_initialization_enabled",
        ],
        // Learn + "system-dynamic-management-views/sys-dm-os-host-info-transact-sql"
        ["sys.dm_os_host_info"] =
        [
            "host_platform", "host_distribution", "host_release", "host_service_pack_level", "host_sku", "os_language_version",
        ],
        // Learn + "system-dynamic-management-views/sys-dm-os-cluster-nodes-transact-sql"
        ["sys.dm_os_cluster_nodes"] = ["NodeName", "status", "status_description", "is_current_owner"],
        // Learn + "system-dynamic-management-views/sys-dm-database-encryption-keys-transact-sql"
        ["sys.dm_database_encryption_keys"] =
        [
            "database_id", "encryption_state", "create_date", "regenerate_date", "modify_date", "set_date", "opened_date",
            "key_algorithm", "key_length", "encryptor_thumbprint", "encryptor_type", "percent_complete",
            "encryption_state_desc", "encryption_scan_state", "encryption_scan_state_desc", "encryption_scan_modify_date",
        ],
        // Learn + "system-dynamic-management-views/sys-dm-os-volume-stats-transact-sql" (a function: master's data file)
        ["sys.dm_os_volume_stats(1, 1)"] =
        [
            "database_id", "file_id", "volume_mount_point", "volume_id", "logical_volume_name", "file_system_type",
            "total_bytes", "available_bytes", "supports_compression", "supports_alternate_streams", "supports_sparse_files",
            "is_read_only", "is_compressed",
        ],
        // Learn + "system-catalog-views/sys-traces-transact-sql"
        ["sys.traces"] =
        [
            "id", "status", "path", "max_size", "stop_time", "max_files", "is_rowset", "is_rollover", "is_shutdown",
            "is_default", "buffer_count", "buffer_size", "file_position", "reader_spid", "start_time", "last_event_time",
            "event_count", "dropped_event_count",
        ],
        // Learn + "system-catalog-views/sys-configurations-transact-sql"
        ["sys.configurations"] =
        [
            "configuration_id", "name", "value", "minimum", "maximum", "value_in_use", "description", "is_dynamic",
            "is_advanced",
        ],
        // Learn + "system-tables/backupset-transact-sql" (the page repeats encryptor_type; the table has it once)
        ["msdb.dbo.backupset"] =
        [
            "backup_set_id", "backup_set_uuid", "media_set_id", "first_family_number", "first_media_number",
            "last_family_number", "last_media_number", "catalog_family_number", "catalog_media_number", "position",
            "expiration_date", "software_vendor_id", "name", "description", "user_name", "software_major_version",
            "software_minor_version", "software_build_version", "time_zone", "mtf_minor_version", "first_lsn", "last_lsn",
            "checkpoint_lsn", "database_backup_lsn", "database_creation_date", "backup_start_date", "backup_finish_date",
            "type", "sort_order", "code_page", "compatibility_level", "database_version", "backup_size", "database_name",
            "server_name", "machine_name", "flags", "unicode_locale", "unicode_compare_style", "collation_name",
            "is_password_protected", "recovery_model", "has_bulk_logged_data", "is_snapshot", "is_readonly",
            "is_single_user", "has_backup_checksums", "is_damaged", "begins_log_chain", "has_incomplete_metadata",
            "is_force_offline", "is_copy_only", "first_recovery_fork_guid", "last_recovery_fork_guid", "fork_point_lsn",
            "database_guid", "family_guid", "differential_base_lsn", "differential_base_guid", "compressed_backup_size",
            "key_algorithm", "encryptor_thumbprint", "encryptor_type", "last_valid_restore_time", "compression_algorithm",
        ],
        // Learn + "system-tables/restorehistory-transact-sql"
        ["msdb.dbo.restorehistory"] =
        [
            "restore_history_id", "restore_date", "destination_database_name", "user_name", "backup_set_id", "restore_type",
            "replace", "recovery", "restart", "stop_at", "device_count", "stop_at_mark_name", "stop_before",
        ],
    };

    // Learn + "system-stored-procedures/sp-trace-setevent-transact-sql": the trace's columns by column id, the order
    // fn_trace_gettable returns them in.
    public static readonly string[] TraceColumns =
    [
        "TextData", "BinaryData", "DatabaseID", "TransactionID", "LineNumber", "NTUserName", "NTDomainName", "HostName",
        "ClientProcessID", "ApplicationName", "LoginName", "SPID", "Duration", "StartTime", "EndTime", "Reads", "Writes",
        "CPU", "Permissions", "Severity", "EventSubClass", "ObjectID", "Success", "IndexID", "IntegerData", "ServerName",
        "EventClass", "ObjectType", "NestLevel", "State", "Error", "Mode", "Handle", "ObjectName", "DatabaseName",
        "FileName", "OwnerName", "RoleName", "TargetUserName", "DBUserName", "LoginSid", "TargetLoginName",
        "TargetLoginSid", "ColumnPermissions", "LinkedServerName", "ProviderName", "MethodName", "RowCounts", "RequestID",
        "XactSequence", "EventSequence", "BigintData1", "BigintData2", "GUID", "IntegerData2", "ObjectID2", "Type",
        "OwnerID", "ParentName", "IsSystem", "Offset", "SourceDatabaseID", "SqlHandle", "SessionLoginName", "PlanHandle",
        "GroupID",
    ];

    public static TheoryData<string> Views => [.. Documented.Keys];

    [Theory]
    [MemberData(nameof(Views))]
    public async Task SqlClient_select_star_returns_the_documented_columns_in_order(string view)
    {
        await using var fleet = TestFleet.StartOne("2022", i => i.ClusterNodes = ["NODE1", "NODE2"]);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand($"SELECT * FROM {view}", connection);

        await using var reader = await command.ExecuteReaderAsync();
        var columns = await reader.GetColumnSchemaAsync();

        Assert.Equal(Documented[view], columns.Select(c => c.ColumnName));
    }

    [Fact]
    public async Task SqlClient_select_star_from_fn_trace_gettable_returns_every_trace_column_in_column_id_order()
    {
        await using var fleet = TestFleet.StartOne("2022");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var path = new SqlCommand("SELECT path FROM sys.traces", connection);
        var current = (string)(await path.ExecuteScalarAsync())!;
        await using var command = new SqlCommand("SELECT * FROM sys.fn_trace_gettable(@path, DEFAULT)", connection);
        command.Parameters.AddWithValue("@path", current[..(current.LastIndexOf('\\') + 1)] + "log.trc");

        await using var reader = await command.ExecuteReaderAsync();
        var columns = await reader.GetColumnSchemaAsync();

        Assert.Equal(TraceColumns, columns.Select(c => c.ColumnName));
    }

    // Types and nullability the pages document where the simulator used to send another type.
    [Theory]
    [InlineData("msdb.dbo.backupset", "type", "char", true)]
    [InlineData("msdb.dbo.restorehistory", "restore_type", "char", true)]
    [InlineData("sys.dm_database_encryption_keys", "percent_complete", "real", false)]
    [InlineData("sys.databases", "owner_sid", "varbinary", true)]
    [InlineData("sys.databases", "containment", "tinyint", false)]
    [InlineData("sys.all_columns", "max_length", "smallint", false)]
    public async Task SqlClient_reads_the_documented_type(string view, string column, string type, bool nullable)
    {
        await using var fleet = TestFleet.StartOne("2022");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand($"SELECT * FROM {view}", connection);

        await using var reader = await command.ExecuteReaderAsync();
        var schema = (await reader.GetColumnSchemaAsync()).Single(c => c.ColumnName == column);

        Assert.Equal((type, nullable), (schema.DataTypeName, schema.AllowDBNull ?? true));
    }

    [Fact]
    public async Task A_column_a_build_lacks_is_missing_there_and_in_all_columns()
    {
        // is_ledger_on came with SQL Server 2022 (sys.databases' page); 2019 has no such column.
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var star = new SqlCommand("SELECT * FROM sys.databases", connection);
        await using (var reader = await star.ExecuteReaderAsync())
        {
            var names = (await reader.GetColumnSchemaAsync()).Select(c => c.ColumnName).ToList();
            Assert.Equal(Documented["sys.databases"].Where(c => c != "is_ledger_on"), names);
        }

        await using var ledger = new SqlCommand("SELECT is_ledger_on FROM sys.databases", connection);
        var error = await Assert.ThrowsAsync<SqlException>(() => ledger.ExecuteScalarAsync());
        Assert.Equal(207, error.Number);
        await using var catalog = new SqlCommand(
            "SELECT COUNT(*) FROM sys.all_columns WHERE object_id = OBJECT_ID('sys.databases') AND name = 'is_ledger_on'", connection);
        Assert.Equal(0, await catalog.ExecuteScalarAsync());
    }

    [Fact]
    public async Task Tedious_select_star_from_master_files_returns_the_documented_columns()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await TediousClient.RunAsync(fleet["sql"].Port, TestFleet.Login, TestFleet.Password, true, "SELECT * FROM sys.master_files");

        Assert.True(result.Error is null, result.Raw);
        Assert.Equal(Documented["sys.master_files"], result.Columns.Select(c => c.Name));
        // tedious names the nullable numeric token NUMERICN (0x6C) "NumericN".
        Assert.Equal(("UniqueIdentifier", "NumericN"), (result.Columns[2].Type, result.Columns[19].Type));
        Assert.NotEmpty(result.Rows);
    }

    [Fact]
    public async Task Tedious_select_star_from_databases_returns_the_documented_columns()
    {
        await using var fleet = TestFleet.StartOne("2022");

        var result = await TediousClient.RunAsync(fleet["sql"].Port, TestFleet.Login, TestFleet.Password, true, "SELECT * FROM sys.databases");

        Assert.True(result.Error is null, result.Raw);
        Assert.Equal(Documented["sys.databases"], result.Columns.Select(c => c.Name));
        Assert.Equal(4, result.Rows.Count);
    }

    [Fact]
    public async Task Jtds_select_star_from_master_files_returns_the_documented_columns()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await ScriptedClient.JtdsAsync(fleet["sql"].Port, "sql SELECT * FROM sys.master_files\n");

        Assert.Empty(result.Errors);
        Assert.Equal(Documented["sys.master_files"], result.ResultSets[0].GetProperty("columns").EnumerateArray().Select(c => c.GetProperty("name").GetString()));
        Assert.Equal(("uniqueidentifier", "numeric"), (result.ColumnTypes(0)[2], result.ColumnTypes(0)[19]));
    }

    [Fact]
    public async Task Jtds_select_star_from_backupset_returns_the_documented_columns()
    {
        await using var fleet = TestFleet.StartOne("2022");

        var result = await ScriptedClient.JtdsAsync(fleet["sql"].Port, "sql SELECT * FROM msdb.dbo.backupset\n");

        Assert.Empty(result.Errors);
        Assert.Equal(Documented["msdb.dbo.backupset"], result.ResultSets[0].GetProperty("columns").EnumerateArray().Select(c => c.GetProperty("name").GetString()));
    }
}

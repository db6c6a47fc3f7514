using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.databases: the system databases and the scenario's own, with recovery model and TDE flag. Every documented
/// column, in the documented order, each from the version its page says it applies to; what the simulator does not
/// model has the value a fresh database has (options off, MULTI_USER, CHECKSUM, the build's compatibility level).
/// </summary>
internal sealed class DatabasesTable : VirtualTable
{
    private const int Sql2012 = 11, Sql2014 = 12, Sql2016 = 13, Sql2017 = 14, Sql2019 = 15, Sql2022 = 16;

    private static DocumentedColumn Flag(string name, int since = 0) => new(new ResultColumn(name, SqlType.Bit), since);

    private static DocumentedColumn Desc(string name, int since = 0, bool nullable = true) =>
        new(ResultColumn.NVarChar(name, 60, nullable), since);

    // "sys.databases (Transact-SQL)", learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-databases-transact-sql
    // [U] columns the page gives to Azure SQL Database or Azure Synapse only (is_federation_member, the catalog
    // collation, result set caching, tempdb spill, stale page detection) are in SQL Server's own catalog too; they are
    // placed where the page lists them, from the build of their neighbours.
    private static readonly DocumentedColumns Documented = new(
    [
        ResultColumn.NVarChar("name", 128, nullable: false),
        new ResultColumn("database_id", SqlType.Int, Nullable: false),
        // The source of a database snapshot; NULL for every other database.
        new ResultColumn("source_database_id", SqlType.Int),
        new ResultColumn("owner_sid", SqlType.VarBinary, MaxLength: 85),
        new ResultColumn("create_date", SqlType.DateTime, Nullable: false),
        new ResultColumn("compatibility_level", SqlType.TinyInt, Nullable: false),
        ResultColumn.NVarChar("collation_name", 128),
        new ResultColumn("user_access", SqlType.TinyInt),
        Desc("user_access_desc"),
        Flag("is_read_only"),
        new ResultColumn("is_auto_close_on", SqlType.Bit, Nullable: false),
        Flag("is_auto_shrink_on"),
        new ResultColumn("state", SqlType.TinyInt),
        Desc("state_desc"),
        Flag("is_in_standby"),
        Flag("is_cleanly_shutdown"),
        Flag("is_supplemental_logging_enabled"),
        new ResultColumn("snapshot_isolation_state", SqlType.TinyInt),
        Desc("snapshot_isolation_state_desc"),
        Flag("is_read_committed_snapshot_on"),
        new ResultColumn("recovery_model", SqlType.TinyInt),
        Desc("recovery_model_desc"),
        new ResultColumn("page_verify_option", SqlType.TinyInt),
        Desc("page_verify_option_desc"),
        Flag("is_auto_create_stats_on"),
        Flag("is_auto_create_stats_incremental_on", Sql2014),
        Flag("is_auto_update_stats_on"),
        Flag("is_auto_update_stats_async_on"),
        Flag("is_ansi_null_default_on"),
        Flag("is_ansi_nulls_on"),
        Flag("is_ansi_padding_on"),
        Flag("is_ansi_warnings_on"),
        Flag("is_arithabort_on"),
        Flag("is_concat_null_yields_null_on"),
        Flag("is_numeric_roundabort_on"),
        Flag("is_quoted_identifier_on"),
        Flag("is_recursive_triggers_on"),
        Flag("is_cursor_close_on_commit_on"),
        Flag("is_local_cursor_default"),
        Flag("is_fulltext_enabled"),
        Flag("is_trustworthy_on"),
        Flag("is_db_chaining_on"),
        Flag("is_parameterization_forced"),
        new ResultColumn("is_master_key_encrypted_by_server", SqlType.Bit, Nullable: false),
        Flag("is_query_store_on", Sql2016),
        Flag("is_published"),
        Flag("is_subscribed"),
        Flag("is_merge_published"),
        Flag("is_distributor"),
        Flag("is_sync_with_backup"),
        new ResultColumn("service_broker_guid", SqlType.UniqueIdentifier, Nullable: false),
        Flag("is_broker_enabled"),
        new ResultColumn("log_reuse_wait", SqlType.TinyInt),
        Desc("log_reuse_wait_desc"),
        Flag("is_date_correlation_on"),
        Flag("is_cdc_enabled"),
        // Can lag behind the encryption DMV while encryption is in progress (reference section 6).
        Flag("is_encrypted"),
        Flag("is_honor_broker_priority_on"),
        new(new ResultColumn("replica_id", SqlType.UniqueIdentifier), Sql2012),
        new(new ResultColumn("group_database_id", SqlType.UniqueIdentifier), Sql2012),
        new(new ResultColumn("resource_pool_id", SqlType.Int), Sql2014),
        new(new ResultColumn("default_language_lcid", SqlType.SmallInt), Sql2012),
        new(ResultColumn.NVarChar("default_language_name", 128), Sql2012),
        new(new ResultColumn("default_fulltext_language_lcid", SqlType.Int), Sql2012),
        new(ResultColumn.NVarChar("default_fulltext_language_name", 128), Sql2012),
        Flag("is_nested_triggers_on", Sql2012),
        Flag("is_transform_noise_words_on", Sql2012),
        new(new ResultColumn("two_digit_year_cutoff", SqlType.SmallInt), Sql2012),
        new(new ResultColumn("containment", SqlType.TinyInt, Nullable: false), Sql2012),
        Desc("containment_desc", Sql2012, nullable: false),
        new(new ResultColumn("target_recovery_time_in_seconds", SqlType.Int), Sql2012),
        new(new ResultColumn("delayed_durability", SqlType.Int), Sql2014),
        Desc("delayed_durability_desc", Sql2014),
        Flag("is_memory_optimized_elevate_to_snapshot_on", Sql2014),
        Flag("is_federation_member", Sql2014),
        Flag("is_remote_data_archive_enabled", Sql2016),
        Flag("is_mixed_page_allocation_on", Sql2016),
        Flag("is_temporal_history_retention_enabled", Sql2017),
        new(new ResultColumn("catalog_collation_type", SqlType.Int, Nullable: false), Sql2019),
        Desc("catalog_collation_type_desc", Sql2019),
        new(ResultColumn.NVarChar("physical_database_name", 128), Sql2019),
        Flag("is_result_set_caching_on", Sql2019),
        Flag("is_accelerated_database_recovery_on", Sql2019),
        Flag("is_tempdb_spill_to_remote_store", Sql2019),
        Flag("is_stale_page_detection_on", Sql2019),
        Flag("is_memory_optimized_enabled", Sql2019),
        Flag("is_ledger_on", Sql2022),
    ]);

    // Data: the modelled facts; everything else is a new database's default.
    private static readonly byte[] SaSid = [0x01];

    public override string Name => "databases";

    public override int ObjectId => -1004;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Documented.On(CatalogMajor(profile));

    public override bool HasColumnOnSomeBuild(string column) => Documented.IsOnSomeBuild(column);

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var instance = session.Instance;
        var major = CatalogMajor(session.Profile);
        var compatibility = (byte)(Math.Min(session.Profile.Major, 17) * 10);
        var created = ServerClock.Local(instance, instance.LastStartupTime);
        var databases = DatabaseLayout.For(instance);
        return databases.Select(d =>
        {
            var recovery = d.RecoveryModel.ToUpperInvariant() switch { "FULL" => 1, "BULK_LOGGED" => 2, _ => 3 };
            object?[] whole =
            [
                d.Name, d.Id, d.SnapshotOf is { } source ? databases.FirstOrDefault(s => s.Name == source)?.Id : null,
                SaSid, created, compatibility, "SQL_Latin1_General_CP1_CI_AS", (byte)0, "MULTI_USER", d.IsSnapshot, false,
                false, (byte)0, "ONLINE", false, false, false, (byte)0, "OFF", false, (byte)recovery, d.RecoveryModel,
                (byte)2, "CHECKSUM", true, false, true, false,
                // ANSI_NULL_DEFAULT ... QUOTED_IDENTIFIER as a new database has them (all off), then the rest.
                false, false, false, false, false, false, false, false, false, false, false, true, d.Id == 4, false,
                false, false, false, false, false, false, false, false, BrokerGuid(d.Id), d.Id == 4, (byte)0,
                "NOTHING", false, false, d.IsEncrypted, false, null, null, null, null, null, null, null, null, null, null,
                (byte)0, "NONE", 60, 0, "DISABLED", false, false, false, false, false, 0, "DATABASE_DEFAULT", d.Name,
                false, false, false, false, false, false,
            ];
            return Documented.Row(major, whole);
        });
    }

    /// <summary>A stable service_broker_guid per database, so repeated reads agree.</summary>
    private static Guid BrokerGuid(int databaseId) => new(databaseId, 0x5B, 0x4000, [0x80, 0, 0, 0, 0, 0, 0, 2]);

    public static string? NameOf(SessionContext session, long databaseId) =>
        DatabaseLayout.For(session.Instance).FirstOrDefault(d => d.Id == databaseId)?.Name;

    public static int? IdOf(SessionContext session, string? name) =>
        name is null ? null : DatabaseLayout.Find(session.Instance, name)?.Id;
}

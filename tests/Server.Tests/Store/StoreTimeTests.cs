using System.Data;
using Dapper;
using IfiDashboard.Store;
using Microsoft.Data.SqlClient;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// Store code passes and reads <see cref="DateTimeOffset"/>; the store holds fixed-width UTC text, on both stores.
/// Dapper's handlers are process-wide, so SQL Server commands (the embedded collector's) must keep Dapper's own mapping.
/// </summary>
public sealed class StoreTimeTests
{
    static readonly CancellationToken None = CancellationToken.None;
    static readonly DateTimeOffset InParis = new(2026, 11, 24, 13, 5, 6, TimeSpan.FromHours(1));

    sealed class TimesRow
    {
        public long Id { get; init; }
        public DateTimeOffset At { get; init; }
        public DateTimeOffset? Maybe { get; init; }
    }

    sealed record TimesRecord(long Id, DateTimeOffset At, DateTimeOffset? Maybe);

    [Theory, StoreProviders]
    public async Task A_time_is_stored_as_utc_text_and_read_back_as_the_same_instant_through_every_shape_dapper_maps(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var connection = await store.OpenAsync();
        await connection.ExecuteAsync("CREATE TABLE store_time_probe (id BIGINT NOT NULL, at TEXT NOT NULL, maybe TEXT);");
        await connection.ExecuteAsync("INSERT INTO store_time_probe (id, at, maybe) VALUES (1, @at, @maybe), (2, @later, @at);",
            new { at = InParis, later = InParis.AddTicks(1), maybe = (DateTimeOffset?)null });

        var texts = (await connection.QueryAsync<(string At, string? Maybe)>("SELECT at, maybe FROM store_time_probe ORDER BY id;")).ToList();
        var rows = (await connection.QueryAsync<TimesRow>("SELECT id AS Id, at AS At, maybe AS Maybe FROM store_time_probe ORDER BY id;")).ToList();
        var records = (await connection.QueryAsync<TimesRecord>("SELECT id, at, maybe FROM store_time_probe ORDER BY id;")).ToList();
        var earliest = await connection.ExecuteScalarAsync<DateTimeOffset>("SELECT MIN(at) FROM store_time_probe;");
        var noneMissing = await connection.QuerySingleAsync<DateTimeOffset?>("SELECT MIN(maybe) FROM store_time_probe WHERE id = 1;");
        var atOrBefore = await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM store_time_probe WHERE at <= @now;",
            new { now = InParis.ToOffset(TimeSpan.FromHours(-5)) });
        // PostgreSQL cannot type an untyped NULL parameter here: the optional filters of the audit and changes queries.
        var unbounded = await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM store_time_probe WHERE (@from IS NULL OR at >= @from);",
            new { from = (DateTimeOffset?)null });

        Assert.Equal([("2026-11-24T12:05:06.0000000Z", null), ("2026-11-24T12:05:06.0000001Z", "2026-11-24T12:05:06.0000000Z")], texts);
        Assert.Equal([(1L, InParis, (DateTimeOffset?)null), (2L, InParis.AddTicks(1), InParis)], rows.Select(r => (r.Id, r.At, r.Maybe)));
        Assert.Equal([new TimesRecord(1, InParis, null), new TimesRecord(2, InParis.AddTicks(1), InParis)], records);
        Assert.Equal(TimeSpan.Zero, rows[0].At.Offset);
        Assert.Equal(InParis, earliest);
        Assert.Null(noneMissing);
        Assert.Equal(1, atOrBefore);
        Assert.Equal(2, unbounded);
    }

    [Fact]
    public void Only_the_stores_providers_get_text_and_any_other_keeps_the_value_as_dapper_passes_it()
    {
        StoreTypeHandlers.Register();
        var sqlite = new SqliteParameter();
        var postgres = new NpgsqlParameter();
        var sqlServer = new SqlParameter();
        var sqlServerNull = new SqlParameter();

        StoreTime.SetParameter(sqlite, InParis);
        StoreTime.SetParameter(postgres, InParis);
        StoreTime.SetParameter(sqlServer, InParis);
        StoreTime.SetParameter(sqlServerNull, null);
        var postgresNull = new NpgsqlParameter();
        StoreTime.SetParameter(postgresNull, null);

        Assert.Equal((DbType.String, (object)"2026-11-24T12:05:06.0000000Z"), (sqlite.DbType, sqlite.Value));
        Assert.Equal((DbType.String, (object)"2026-11-24T12:05:06.0000000Z"), (postgres.DbType, postgres.Value));
        Assert.Equal((DbType.DateTimeOffset, (object)InParis), (sqlServer.DbType, sqlServer.Value));
        Assert.Equal(TimeSpan.FromHours(1), ((DateTimeOffset)sqlServer.Value).Offset);
        Assert.Equal((DbType.DateTimeOffset, (object)DBNull.Value), (sqlServerNull.DbType, sqlServerNull.Value));
        Assert.Equal((DbType.String, (object)DBNull.Value), (postgresNull.DbType, postgresNull.Value));
    }
}

using IfiDashboard.Store;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>What the PostgreSQL store adds to the administrator's connection string (no server needed: nothing connects).</summary>
public sealed class PostgresConnectionFactoryTests
{
    static async Task<NpgsqlConnectionStringBuilder> EffectiveAsync(string connectionString)
    {
        await using var factory = new PostgresConnectionFactory(Microsoft.Extensions.Options.Options.Create(
            new StoreOptions { Provider = StoreOptions.PostgresProvider, ConnectionString = connectionString }));
        return new NpgsqlConnectionStringBuilder(factory.DataSource.ConnectionString);
    }

    [Fact]
    public async Task Repeated_statements_are_prepared_unless_the_administrator_says_otherwise()
    {
        var unset = await EffectiveAsync("Host=db.example.test;Username=ifi;Database=ifi");
        var off = await EffectiveAsync("Host=db.example.test;Username=ifi;Database=ifi;Max Auto Prepare=0");
        var other = await EffectiveAsync("Host=db.example.test;Username=ifi;Database=ifi;maxautoprepare=10");

        Assert.Equal(PostgresConnectionFactory.AutoPreparedStatements, unset.MaxAutoPrepare);
        Assert.Equal(0, off.MaxAutoPrepare);
        Assert.Equal(10, other.MaxAutoPrepare);
    }

    [Fact]
    public async Task Sessions_are_named_and_wait_for_a_lock_at_most_the_store_wait()
    {
        var effective = await EffectiveAsync("Host=db.example.test;Username=ifi;Database=ifi");

        Assert.Equal("IfiDashboard", effective.ApplicationName);
        Assert.Contains($"lock_timeout={(int)StoreBusy.LockWait.TotalMilliseconds}", effective.Options, StringComparison.Ordinal);
    }
}

using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using IfiDashboard.Server.Tests.Store;
using Microsoft.AspNetCore.Antiforgery;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>The store and the key ring are readable by the service account alone.</summary>
[Trait(TestDatabase.SqliteOnlyTrait, TestDatabase.SqliteOnlyValue)]
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")] // Unix file modes; Windows folders inherit their ACL
public sealed class PrivateFilesTests : IDisposable
{
    readonly string _root = Directory.CreateTempSubdirectory("ifi-private-").FullName;

    public void Dispose()
    {
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Directory.Delete(_root, recursive: true);
    }

    static UnixFileMode ModeOf(string path) => File.GetUnixFileMode(path);

    const UnixFileMode OwnerReadWrite = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    const UnixFileMode OwnerAll = OwnerReadWrite | UnixFileMode.UserExecute;

    [Fact]
    public async Task A_new_store_is_created_owner_only_in_an_owner_only_folder_and_so_are_its_wal_files()
    {
        var path = Path.Combine(_root, "nested", "data", "store.db");
        var connections = new SqliteConnectionFactory(Options.Create(new StoreOptions { ConnectionString = $"Data Source={path}" }));

        await using (var connection = await connections.OpenAsync(CancellationToken.None))
        {
            await using var command = connection.CreateCommand();
            command.CommandText = "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);";
            await command.ExecuteNonQueryAsync();
            Assert.Equal(OwnerReadWrite, ModeOf(path + "-wal"));
            Assert.Equal(OwnerReadWrite, ModeOf(path + "-shm"));
        }

        Assert.Equal(OwnerReadWrite, ModeOf(path));
        Assert.Equal(OwnerAll, ModeOf(Path.GetDirectoryName(path)!));
    }

    [Fact]
    public void A_store_an_earlier_release_left_world_readable_loses_group_and_other_access()
    {
        var path = Path.Combine(_root, "store.db");
        File.WriteAllBytes(path, []);
        File.WriteAllBytes(path + "-shm", []);
        File.SetUnixFileMode(path, OwnerReadWrite | UnixFileMode.GroupRead | UnixFileMode.OtherRead);
        File.SetUnixFileMode(path + "-shm", OwnerReadWrite | UnixFileMode.GroupRead | UnixFileMode.OtherRead);

        _ = new SqliteConnectionFactory(Options.Create(new StoreOptions { ConnectionString = $"Data Source={path}" }));

        Assert.Equal(OwnerReadWrite, ModeOf(path));
        Assert.Equal(OwnerReadWrite, ModeOf(path + "-shm"));
    }

    [Fact]
    public async Task The_key_ring_that_signs_form_tokens_lives_beside_the_store_in_an_owner_only_folder()
    {
        var services = new ServiceCollection().AddLogging();
        var store = Path.Combine(_root, "data", "ifidashboard.db");
        services.AddSingleton(Options.Create(new StoreOptions { ConnectionString = $"Data Source={store}" }));
        services.AddIfiDataProtection(new Microsoft.Extensions.Configuration.ConfigurationBuilder().Build());
        services.AddAntiforgery();
        await using var provider = services.BuildServiceProvider();

        var tokens = provider.GetRequiredService<IAntiforgery>().GetAndStoreTokens(new DefaultHttpContext { RequestServices = provider });

        Assert.False(string.IsNullOrEmpty(tokens.RequestToken));
        var keys = Path.Combine(_root, "data", "keys");
        Assert.Equal(OwnerAll, ModeOf(keys));
        Assert.NotEmpty(Directory.GetFiles(keys, "key-*.xml"));
    }

    [Fact]
    public void A_configured_key_folder_wins_and_a_postgres_store_without_one_keeps_the_framework_default()
    {
        var configured = Path.Combine(_root, "shared-keys");

        Assert.Equal(configured, DataProtectionKeys.KeysFolder(configured, new StoreOptions()));
        Assert.Null(DataProtectionKeys.KeysFolder(null, new StoreOptions { Provider = StoreOptions.PostgresProvider, ConnectionString = "Host=db" }));
        Assert.Null(DataProtectionKeys.KeysFolder(null, new StoreOptions { ConnectionString = "Data Source=:memory:" }));
    }
}

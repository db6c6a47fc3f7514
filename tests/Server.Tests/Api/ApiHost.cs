using System.Net.Http.Headers;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Keys;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Server.Tests.Store;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// The real server over HTTP with its store in a temporary SQLite file, the embedded collector off, and a bootstrap
/// admin key to create the keys a test needs.
/// </summary>
public sealed class ApiHost(Action<IWebHostBuilder>? configure = null) : WebApplicationFactory<Program>
{
    public const string BootstrapKey = "bootstrap-admin-key-for-tests-0123456789";

    readonly (string Directory, TestDatabase Database) _store = NewStore();

    public ApiHost() : this(null) { }

    string _directory => _store.Directory;
    TestDatabase Database => _store.Database;

    static (string, TestDatabase) NewStore()
    {
        var directory = Directory.CreateTempSubdirectory("ifi-api-").FullName;
        return (directory, TestDatabase.Create($"Data Source={Path.Combine(directory, "store.db")}", migrated: true));
    }

    /// <summary>The store, as command-line arguments for the server's CLI commands.</summary>
    public string[] StoreArguments =>
        [$"--Store:Provider={Database.Provider}", $"--Store:ConnectionString={Database.ConnectionString}"];

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseSetting("Store:Provider", Database.Provider);
        builder.UseSetting("Store:ConnectionString", Database.ConnectionString);
        builder.UseSetting("Collector:Enabled", "false");
        // Four-eyes is on by default; these tests grant waivers that count at once, as before it was, unless one sets it.
        builder.UseSetting("Auth:WaiversNeedApproval", "false");
        builder.UseSetting("Collector:Name", "api-tests");
        builder.UseSetting("Api:BootstrapAdminKey", BootstrapKey);
        builder.ConfigureTestServices(TestSignIn.Register);
        configure?.Invoke(builder);
    }

    /// <summary>A client sending <paramref name="key"/> in X-Api-Key (none when null).</summary>
    public HttpClient Client(string? key)
    {
        var client = CreateClient();
        if (key is not null)
            client.DefaultRequestHeaders.Add("X-Api-Key", key);
        return client;
    }

    /// <summary>The collector a key with <c>snapshot:ingest</c> made by <see cref="CreateKeyAsync"/> belongs to.</summary>
    public const string Collector = "c1";

    /// <summary>
    /// A new stored key with these scopes, created through the API with the bootstrap key; with <c>snapshot:ingest</c>
    /// it belongs to the collector <see cref="Collector"/>.
    /// </summary>
    public async Task<string> CreateKeyAsync(params string[] scopes)
    {
        var admin = Client(BootstrapKey);
        var collector = scopes.Contains("snapshot:ingest") ? Collector : null;
        var response = await admin.PostAsJsonAsync("/api/v1/api-keys", new { name = "test-" + string.Join("-", scopes).Replace(':', '.'), scopes, collector });
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<CreatedApiKeyResponse>())!.Key;
    }

    /// <summary>A client whose key holds <c>read</c> and <c>inventory:write</c>, as a CMDB integration would.</summary>
    public async Task<HttpClient> CmdbClientAsync() => Client(await CreateKeyAsync("read", "inventory:write"));

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        Database.Dispose();
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

/// <summary>One <see cref="ApiHost"/> for every test of a class (xUnit's class fixture): for tests whose data do not meet.</summary>
public sealed class SharedApiHost : IAsyncLifetime
{
    public ApiHost Host { get; } = new();

    public Task InitializeAsync() => Task.CompletedTask;

    public async Task DisposeAsync() => await Host.DisposeAsync();
}

internal static class HttpContentExtensions
{
    public static StringContent Json(string json, string mediaType = "application/json") =>
        new(json, new MediaTypeHeaderValue(mediaType) { CharSet = "utf-8" });
}

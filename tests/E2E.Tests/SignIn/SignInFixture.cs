using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.E2E.Tests.SignIn;

/// <summary>
/// The server as a production deployment signs people in: OpenID Connect against the real provider on loopback,
/// roles mapped from the provider's <c>roles</c> claim. One registered instance to grant waivers for; no fleet is
/// polled (sign-in is what is tested).
/// </summary>
public sealed class SignInFixture : IAsyncLifetime
{
    public const string InstanceName = "SIGNIN-SQL01";

    public SignInDashboard Server { get; private set; } = null!;
    public OidcProviderProcess Provider { get; private set; } = null!;
    public Browser Browser { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var port = LoopbackPorts.Unassigned();
        Provider = await OidcProviderProcess.StartAsync($"http://127.0.0.1:{port}/");
        Server = new SignInDashboard(port, Provider.Issuer);
        Server.StartServer();
        await Server.Services.GetRequiredService<IInventoryEditor>().RegisterAsync(
            new InstanceRegistration { Name = InstanceName, Host = "sql01.bank.test", Port = 1433 }, CancellationToken.None);
        Browser = new Browser();
    }

    public async Task DisposeAsync()
    {
        Browser?.Dispose();
        if (Server is not null) await Server.DisposeAsync();
        Provider?.Dispose();
    }
}

public sealed class SignInDashboard : WebApplicationFactory<Program>
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-signin-").FullName;
    readonly string _issuer;

    public SignInDashboard(int port, string issuer)
    {
        _issuer = issuer;
        Port = port;
        UseKestrel(port);
    }

    public int Port { get; }
    public string BaseUrl => $"http://127.0.0.1:{Port}/";

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseSetting("Store:ConnectionString", $"Data Source={Path.Combine(_directory, "store.db")}");
        builder.UseSetting("Collector:Enabled", "false");
        builder.UseSetting("Auth:Oidc:Authority", _issuer);
        builder.UseSetting("Auth:Oidc:ClientId", OidcProviderProcess.ClientId);
        builder.UseSetting("Auth:Oidc:ClientSecret", OidcProviderProcess.ClientSecret);
        builder.UseSetting("Auth:Oidc:RequireHttpsMetadata", "false"); // the provider is on loopback, over HTTP
        builder.UseSetting("Auth:Roles:Viewer:0", "ifi-viewers");
        builder.UseSetting("Auth:Roles:Operator:0", "ifi-operators");
        builder.UseSetting("Auth:Roles:Administrator:0", "ifi-admins");
        builder.UseSetting("Auth:MaxWaiverDays", "30");
        // Four-eyes is on by default; the tests that need it turn it on (FourEyes), the others grant waivers that count.
        builder.UseSetting("Auth:WaiversNeedApproval", "false");
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

[CollectionDefinition(Name)]
public sealed class SignInCollection : ICollectionFixture<SignInFixture>
{
    public const string Name = "signing in through OpenID Connect in Chromium";
}

using System.Net.Http.Json;
using Dapper;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api.Compliance;

/// <summary>
/// A simulated fleet registered through the CMDB API (so instances have external keys), polled and assessed by the
/// real server. <c>CI-OFF</c> lacks IFI and has growth history; its owner is a spreadsheet formula.
/// </summary>
public sealed class ComplianceFleet : IAsyncDisposable
{
    public const string FormulaOwner = "=HYPERLINK(\"http://evil.example\",\"x\")";
    static readonly DateTimeOffset Yesterday = DateTimeOffset.UtcNow.AddDays(-1);

    ComplianceFleet(DashboardHost host) => Host = host;

    public DashboardHost Host { get; }
    public HttpClient Reader { get; private set; } = null!;
    public HttpClient Writer { get; private set; } = null!;

    static ScenarioInstance[] Instances() =>
    [
        new() { Name = "ok-required", Profile = "2019", IfiEnabled = true },
        // Started before its oldest growth: growths before the first observed service start have no known IFI state.
        new() { Name = "off-required", Profile = "2019", IfiEnabled = false, LastStartupTime = Yesterday.AddDays(-90),
            Databases = [new ScenarioDatabase { Name = "Sales", Id = 5, Files =
            [
                new ScenarioDatabaseFile { Name = "Sales", PhysicalName = @"D:\Data\Sales.mdf", SizePages = 1_310_720, Growth = 8192 },
                new ScenarioDatabaseFile { Name = "Sales_log", PhysicalName = @"L:\Log\Sales.ldf", Type = DatabaseFileType.Log, SizePages = 65_536, Growth = 8192 },
            ] }],
            // Two 64 MB data growths zeroed in 1 s each and a log growth yesterday; one more data growth 40 days ago;
            // a 1 GB one in 16 s 80 days ago, the only zeroing-rate sample (64 MB growths are too small to be one).
            GrowthEvents =
            [
                new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday.AddDays(-79), DurationMicroseconds = 16_000_000, GrowthPages = 131_072 },
                new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday.AddDays(-39), DurationMicroseconds = 1_000_000, GrowthPages = 8192 },
                new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday, DurationMicroseconds = 1_000_000, GrowthPages = 8192 },
                new ScenarioGrowthEvent { EventClass = 92, Database = "Sales", FileName = "Sales", StartTime = Yesterday.AddHours(1), DurationMicroseconds = 1_000_000, GrowthPages = 8192 },
                new ScenarioGrowthEvent { EventClass = 93, Database = "Sales", FileName = "Sales_log", StartTime = Yesterday.AddHours(2), DurationMicroseconds = 500_000, GrowthPages = 8192 },
            ] },
        new() { Name = "legacy", Profile = "2012-SP3", IfiEnabled = true },
        new() { Name = "pci-on", Profile = "2022", IfiEnabled = true },
    ];

    /// <summary>External key, environment, owner and tags of each simulated instance.</summary>
    static readonly Dictionary<string, (string Key, string Environment, string? Owner, string[] Tags)> Cmdb = new()
    {
        ["ok-required"] = ("CI-OK", "Production", "dba-team", ["tier1"]),
        ["off-required"] = ("CI-OFF", "Production", FormulaOwner, ["tier1", "emea"]),
        ["legacy"] = ("CI-LEGACY", "Production", null, []),
        ["pci-on"] = ("CI-PCI", "Test", "dba-team", ["pci"]),
    };

    public static async Task<ComplianceFleet> StartAsync()
    {
        var fleet = new ComplianceFleet(new DashboardHost(Instances()));
        var issuer = fleet.Host.Services.GetRequiredService<ApiKeyIssuer>();
        fleet.Reader = fleet.Client((await issuer.CreateAsync("reader", ["read"], null, CancellationToken.None)).Key);
        fleet.Writer = fleet.Client((await issuer.CreateAsync("cmdb", ["inventory:write"], null, CancellationToken.None)).Key);
        foreach (var instance in fleet.Host.Fleet.Instances)
        {
            var (key, environment, owner, tags) = Cmdb[instance.Name];
            var response = await fleet.Writer.PutAsJsonAsync($"/api/v1/instances/{key}", new
            {
                name = instance.Name, host = "127.0.0.1", port = instance.Port, environment, owner, tags,
                trustServerCertificate = true, credentialName = "fleet",
            });
            response.EnsureSuccessStatusCode();
        }
        // Each registration wakes the background assessment, which may come before the first poll or after it: made
        // to come before it here, so every instance is first seen not polled yet, whichever is quicker.
        await fleet.Host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
        await fleet.Host.Services.GetRequiredService<IfiDashboard.Server.Api.Changes.ChangeRecorder>().CatchUpAsync(CancellationToken.None);
        await fleet.PollAndAssessAsync();
        return fleet;
    }

    public HttpClient Client(string? key)
    {
        var client = Host.CreateClient();
        if (key is not null)
            client.DefaultRequestHeaders.Add("X-Api-Key", key);
        return client;
    }

    /// <summary>Makes every instance due (as if its poll interval had passed), polls them and assesses the fleet.</summary>
    public async Task PollAndAssessAsync()
    {
        await using (var connection = await Host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            await connection.ExecuteAsync("UPDATE instances SET next_poll_at = NULL WHERE retired_at IS NULL;");
        await Host.PollAllAsync();
        await Host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    public long IdOf(string name) => Host.IdOf(name);

    public async ValueTask DisposeAsync() => await Host.DisposeAsync();
}

/// <summary>One assessed fleet shared by the read-only tests of a class.</summary>
public sealed class ComplianceFleetFixture : IAsyncLifetime
{
    public ComplianceFleet Fleet { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        // The polls also wake the background assessment (a second after they settle), which may land during a test:
        // it reads the same store, so only computedAt can differ, and the tests comparing two responses allow for that.
        Fleet = await ComplianceFleet.StartAsync();
    }

    public async Task DisposeAsync() => await Fleet.DisposeAsync();
}

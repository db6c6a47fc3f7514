using System.Net.Http.Json;
using Microsoft.AspNetCore.Hosting;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>One server with two CMDB instances and a key holding every scope, shared by the hostile catalogue.</summary>
public sealed class HostileRequestFixture : IAsyncLifetime
{
    public const int MaxSyncBodyBytes = 1024 * 1024;
    public const int MaxSnapshotBytes = 64 * 1024;
    public const string Collector = "hostile-tests";
    public const string CollectorKeyValue = "hostile-tests-collector-key-0123456789";

    public ApiHost Host { get; } = new(b => b
        .UseSetting("Api:MaxSyncBodyBytes", MaxSyncBodyBytes.ToString(System.Globalization.CultureInfo.InvariantCulture))
        .UseSetting("Ingestion:MaxSnapshotBytes", MaxSnapshotBytes.ToString(System.Globalization.CultureInfo.InvariantCulture))
        .UseSetting($"Ingestion:ApiKeys:{Collector}", CollectorKeyValue));

    public HttpClient Client { get; private set; } = null!;

    public string ReadOnlyKey { get; private set; } = "";

    public HttpClient CollectorClient { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        Client = Host.Client(await Host.CreateKeyAsync("read", "inventory:write", "admin"));
        ReadOnlyKey = await Host.CreateKeyAsync("read");
        CollectorClient = Host.Client(CollectorKeyValue);
        (await Client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"))).EnsureSuccessStatusCode();
        (await Client.PutAsJsonAsync("/api/v1/instances/CI002", ApiTestData.PutBody("SQL02"))).EnsureSuccessStatusCode();
    }

    public async Task DisposeAsync() => await Host.DisposeAsync();
}

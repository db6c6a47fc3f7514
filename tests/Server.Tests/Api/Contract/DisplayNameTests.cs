using System.Net.Http.Json;
using System.Text.Json;

namespace IfiDashboard.Server.Tests.Api.Contract;

/// <summary>
/// <c>instanceName</c> means a SQL Server named instance throughout /api/v1; the registration's name is
/// <c>displayName</c>, with <c>instanceName</c> kept beside it as a deprecated alias until v2 where it meant that.
/// </summary>
public sealed class DisplayNameTests
{
    [Fact]
    public async Task A_change_entry_carries_the_display_name_and_the_alias_while_the_inventory_keeps_the_named_instance()
    {
        await using var host = new ApiHost();
        var client = await host.CmdbClientAsync();
        var body = ApiTestData.PutBody("PAYROLL-REPORTS");
        body.Remove("port");
        body["instanceName"] = "SQLEXPRESS";
        (await client.PutAsJsonAsync("/api/v1/instances/CI001", body)).EnsureSuccessStatusCode();

        var instance = JsonDocument.Parse(await client.GetStringAsync("/api/v1/instances/CI001")).RootElement;
        var entry = JsonDocument.Parse(await client.GetStringAsync("/api/v1/changes")).RootElement.GetProperty("items")
            .EnumerateArray().Single(e => e.GetProperty("kind").GetString() == "inventory");

        Assert.Equal("SQLEXPRESS", instance.GetProperty("instanceName").GetString());
        Assert.Equal("PAYROLL-REPORTS", entry.GetProperty("displayName").GetString());
        Assert.Equal("PAYROLL-REPORTS", entry.GetProperty("instanceName").GetString());
    }
}

using System.Net.Http.Json;
using System.Text.Json;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>The server's API as the tests of several real processes drive it.</summary>
internal static class ProductionApi
{
    /// <summary>
    /// How often a wait on real processes reads their API or their store: the changes awaited take seconds (a poll, an
    /// assessment, a mail), and each read is work for the servers and PostgreSQL on the same two cores.
    /// </summary>
    public static readonly TimeSpan ReadEvery = TimeSpan.FromSeconds(1);

    /// <summary>
    /// A client of one server with a read and inventory key issued through the bootstrap admin key, or with
    /// <paramref name="key"/> (one issued before, through another server on the same store).
    /// </summary>
    public static async Task<HttpClient> ClientAsync(string baseUrl, string adminKey, string keyName, string? key = null)
    {
        var http = new HttpClient { BaseAddress = new Uri(baseUrl), Timeout = TimeSpan.FromSeconds(30) };
        if (key is null)
        {
            http.DefaultRequestHeaders.Add("X-Api-Key", adminKey);
            var created = await http.PostAsJsonAsync("api/v1/api-keys", new { name = keyName, scopes = new[] { "read", "inventory:write" } });
            Assert.True(created.IsSuccessStatusCode, await created.Content.ReadAsStringAsync());
            key = (await created.Content.ReadFromJsonAsync<JsonElement>()).GetProperty("key").GetString()!;
            http.DefaultRequestHeaders.Remove("X-Api-Key");
        }
        http.DefaultRequestHeaders.Add("X-Api-Key", key);
        return http;
    }

    /// <summary>Registers a simulated instance on loopback, read with the credential <c>fleet</c>.</summary>
    public static async Task RegisterAsync(HttpClient api, string name, int port, int pollIntervalSeconds)
    {
        var response = await api.PutAsJsonAsync($"api/v1/instances/{name}", new
        {
            name,
            host = "127.0.0.1",
            port,
            trustServerCertificate = true,
            credentialName = "fleet",
            pollIntervalSeconds,
        });
        Assert.True(response.IsSuccessStatusCode, await response.Content.ReadAsStringAsync());
    }

    /// <summary>
    /// "Verify now" for the instances (their external keys): they become due at once and the collectors poll them
    /// within seconds, so a test that changed the simulated fleet waits for that poll, not for a poll interval.
    /// </summary>
    public static async Task VerifyNowAsync(HttpClient api, IReadOnlyList<string> externalKeys)
    {
        var response = await api.PostAsJsonAsync("api/v1/instances/verify", new { instances = externalKeys });
        Assert.True(response.StatusCode == System.Net.HttpStatusCode.Accepted, await response.Content.ReadAsStringAsync());
    }
}

using System.Net.Http.Json;
using System.Text.Json;

namespace IfiDashboard.Server.Tests.Api.Compliance;

internal static class Json
{
    public static async Task<JsonElement> GetAsync(HttpClient client, string path)
    {
        var response = await client.GetAsync(path);
        var body = await response.Content.ReadAsStringAsync();
        Assert.True(response.IsSuccessStatusCode, $"{path}: {(int)response.StatusCode} {body}");
        return JsonDocument.Parse(body).RootElement;
    }

    public static async Task<T> GetAsync<T>(HttpClient client, string path) =>
        (await client.GetFromJsonAsync<T>(path))!;

    public static List<string> Strings(JsonElement array, string property) =>
        array.EnumerateArray().Select(e => e.GetProperty(property).GetString()!).ToList();
}

using System.Text.Json;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>The answer every rejected request must give: an RFC 7807 problem with its status, naming the field.</summary>
internal static class ProblemAssert
{
    public static async Task IsProblemAsync(HttpResponseMessage response, int status, string? field)
    {
        var body = await response.Content.ReadAsStringAsync();
        Assert.Equal(status, (int)response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        var problem = JsonDocument.Parse(body).RootElement;
        Assert.Equal(status, problem.GetProperty("status").GetInt32());
        if (field is not null)
            Assert.True(problem.GetProperty("errors").TryGetProperty(field, out _), $"problem does not name {field}: {body}");
    }
}

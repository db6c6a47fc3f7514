using IfiDashboard.Shared.Security;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Tests.Security;
using System.Text.Json;

namespace IfiDashboard.Server.Tests.Api.Compliance;

/// <summary>Reads of the one OpenAPI document the server serves: one host for the class, nothing written.</summary>
public sealed class ComplianceOpenApiTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Theory]
    [InlineData("/api/v1/compliance/summary", "GetComplianceSummary")]
    [InlineData("/api/v1/compliance/instances", "ListInstanceCompliance")]
    [InlineData("/api/v1/compliance/instances/{key}", "GetInstanceCompliance")]
    [InlineData("/api/v1/compliance/instances/{key}/growth-events", "ListGrowthEvents")]
    [InlineData("/api/v1/compliance/time-lost", "GetTimeLost")]
    [InlineData("/api/v1/compliance/restore-risk", "GetRestoreRisk")]
    [InlineData("/api/v1/compliance/export", "ExportInstanceCompliance")]
    [InlineData("/api/v1/changes", "ListChanges")]
    public async Task Each_read_names_its_scope_its_problems_and_its_304(string path, string operationId)
    {
        var host = shared.Host;
        var document = JsonDocument.Parse(await TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer).GetStringAsync("/openapi/v1.json")).RootElement;

        var get = document.GetProperty("paths").GetProperty(path).GetProperty("get");

        Assert.Equal(operationId, get.GetProperty("operationId").GetString());
        Assert.Contains("`read`", get.GetProperty("description").GetString(), StringComparison.Ordinal);
        foreach (var status in new[] { "200", "304", "401", "403", "429" })
            Assert.True(get.GetProperty("responses").TryGetProperty(status, out _), $"{path} lacks {status}");
    }

    [Fact]
    public async Task Export_documents_json_csv_and_406()
    {
        var host = shared.Host;
        var document = JsonDocument.Parse(await TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer).GetStringAsync("/openapi/v1.json")).RootElement;

        var responses = document.GetProperty("paths").GetProperty("/api/v1/compliance/export").GetProperty("get").GetProperty("responses");

        var content = responses.GetProperty("200").GetProperty("content");
        Assert.True(content.TryGetProperty("application/json", out _));
        Assert.True(content.TryGetProperty("text/csv", out _));
        Assert.True(responses.TryGetProperty("406", out _));
    }
}

using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// Each malformed or hostile request gets a clear 4xx problem, and the store is exactly as before; what the collector
/// API refuses is counted (one more refusal in its hour's count) and nothing else changes.
/// </summary>
public sealed class HostileRequestTests(HostileRequestFixture fixture) : IClassFixture<HostileRequestFixture>
{
    public static TheoryData<string> CaseNames() => new(HostileRequestCatalogue.Cases.Keys);

    [Fact]
    public void The_catalogue_has_at_least_thirty_cases() => Assert.True(HostileRequestCatalogue.Cases.Count >= 30);

    [Theory]
    [MemberData(nameof(CaseNames))]
    public async Task Hostile_request_is_a_4xx_problem_and_changes_nothing(string name)
    {
        var hostile = HostileRequestCatalogue.Cases[name];
        var before = await StoreDump.AllTextAsync(fixture.Host.Services, StoreDump.AuditLog);
        var refusalsBefore = await CollectorRefusalsAsync();
        var client = hostile.NoKey ? fixture.Host.Client(null)
            : hostile.ReadOnlyKey ? fixture.Host.Client(fixture.ReadOnlyKey)
            : hostile.CollectorKey ? fixture.CollectorClient
            : fixture.Client;

        var response = await client.SendAsync(Request(hostile));

        await ProblemAssert.IsProblemAsync(response, hostile.Status, hostile.Field);
        Assert.Equal(before, await StoreDump.AllTextAsync(fixture.Host.Services, StoreDump.AuditLog));
        // Counted, not an entry each: what the collector API refuses, to its own collector or to a key it refuses.
        var collectorApiRefusal = hostile.CollectorKey || (hostile.Path.StartsWith("/api/v1/collector", StringComparison.Ordinal) && (hostile.NoKey || hostile.ReadOnlyKey));
        Assert.Equal(refusalsBefore + (collectorApiRefusal ? 1 : 0), await CollectorRefusalsAsync());
    }

    async Task<long> CollectorRefusalsAsync() =>
        (await fixture.Host.Services.GetRequiredService<AuditLog>()
            .RefusalCountsAsync(DateTimeOffset.MinValue, DateTimeOffset.MaxValue, CancellationToken.None))
        .Where(r => r.Action == AuditActions.CollectorRefused).Sum(r => r.Refusals);

    static HttpRequestMessage Request(HostileRequest hostile)
    {
        var request = new HttpRequestMessage(new HttpMethod(hostile.Method), hostile.Path);
        if (hostile.Body is null)
            return request;
        var bytes = Encoding.UTF8.GetBytes(hostile.Body);
        // A stream of unknown length goes out chunked, with no Content-Length to reject it early.
        HttpContent content = hostile.Chunked ? new StreamContent(new UnknownLengthStream(bytes)) : new ByteArrayContent(bytes);
        content.Headers.ContentType = MediaTypeHeaderValue.Parse(hostile.ContentType);
        request.Content = content;
        return request;
    }

    sealed class UnknownLengthStream(byte[] bytes) : MemoryStream(bytes)
    {
        public override bool CanSeek => false;
    }
}

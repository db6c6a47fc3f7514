using System.Net;
using IfiDashboard.Server.Api.Keys;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Functional;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// One store for the tests whose keys do not meet; the round trip, which reads back the command's whole audit trail,
/// has its own.
/// </summary>
public sealed class ApiKeyCliTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task Cli_created_key_works_until_the_cli_revokes_it()
    {
        await using var host = new ApiHost();
        var store = host.StoreArguments;

        var (createCode, createOut) = await RunAsync(["create", "--name", "cmdb", "--scopes", "read,inventory:write", .. store]);
        var key = createOut.Split('\n', StringSplitOptions.TrimEntries).Single(l => l.StartsWith("ifi_", StringComparison.Ordinal));
        var prefix = key.Split('_')[1];
        var client = host.Client(key);
        var before = await client.GetAsync("/api/v1/instances");
        var (listCode, listOut) = await RunAsync(["list", .. store]);
        var (revokeCode, _) = await RunAsync(["revoke", prefix, .. store]);
        var after = await client.GetAsync("/api/v1/instances");

        Assert.Equal(0, createCode);
        Assert.Equal(HttpStatusCode.OK, before.StatusCode);
        Assert.Equal(0, listCode);
        Assert.Contains($"{prefix}\tcmdb\tread,inventory:write", listOut, StringComparison.Ordinal);
        Assert.DoesNotContain(key, listOut, StringComparison.Ordinal);
        Assert.Equal(0, revokeCode);
        Assert.Equal(HttpStatusCode.Unauthorized, after.StatusCode);
        Assert.DoesNotContain(key, await StoreDump.AllTextAsync(host.Services), StringComparison.Ordinal);
        var audited = await host.Services.GetRequiredService<AuditLog>().QueryAsync(
            new AuditFilter(Actor: $"api-key command ({Environment.UserName})"), null, 10, CancellationToken.None);
        Assert.Equal([AuditActions.ApiKeyRevoked, AuditActions.ApiKeyIssued], audited.Select(e => e.Action));
    }

    [Fact]
    public async Task A_collector_key_is_created_for_its_collector_and_listed_with_it()
    {
        var host = shared.Host;

        var unboundError = new StringWriter();
        var unboundCode = await ApiKeyCli.RunAsync(["create", "--name", "dc1", "--scopes", "snapshot:ingest", .. host.StoreArguments],
            new StringWriter(), unboundError);
        var (createCode, createOut) = await RunAsync(["create", "--name", "dc1", "--scopes", "snapshot:ingest", "--collector", "dc1_collector", .. host.StoreArguments]);
        var (_, listOut) = await RunAsync(["list", .. host.StoreArguments]);

        Assert.Equal(2, unboundCode);
        Assert.Contains("--collector:", unboundError.ToString(), StringComparison.Ordinal);
        Assert.Equal(0, createCode);
        Assert.Contains("for the collector 'dc1_collector'", createOut, StringComparison.Ordinal);
        Assert.Contains("\tdc1\tsnapshot:ingest\tdc1_collector\t", listOut, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("create", "--scopes", "read")]
    [InlineData("create", "--name", "cmdb", "--scopes", "read,everything")]
    [InlineData("frobnicate")]
    [InlineData("revoke")]
    public async Task Bad_usage_exits_2_and_creates_nothing(params string[] args)
    {
        var host = shared.Host;
        var (code, output) = await RunAsync([.. args, .. host.StoreArguments]);

        Assert.Equal(2, code);
        Assert.DoesNotContain("ifi_", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Revoking_an_unknown_prefix_exits_1()
    {
        var host = shared.Host;

        var (code, _) = await RunAsync(["revoke", "zzzzzzzz", .. host.StoreArguments]);

        Assert.Equal(1, code);
    }

    static async Task<(int Code, string Output)> RunAsync(params string[] args)
    {
        var output = new StringWriter();
        var code = await ApiKeyCli.RunAsync(args, output, new StringWriter());
        return (code, output.ToString());
    }
}

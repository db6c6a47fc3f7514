using System.Net.Http.Json;
using System.Text.Json;
using IfiDashboard.Server.Tests.Functional;

namespace IfiDashboard.Server.Tests.Api.Compliance;

/// <summary>A malformed or hostile read of the compliance API or the changes feed, and what it must get.</summary>
public sealed record HostileRead(string Path, int Status, string? Field = null, string? Accept = null,
    string Method = "GET", string Key = "read");

internal static class ComplianceHostileCatalogue
{
    const string Injection = "'; DROP TABLE change_journal;--";
    static string E(string text) => Uri.EscapeDataString(text);

    public static readonly IReadOnlyDictionary<string, HostileRead> Cases = new Dictionary<string, HostileRead>
    {
        ["unknown status"] = new("/api/v1/compliance/instances?status=Bogus", 400, "status"),
        ["status as a number"] = new("/api/v1/compliance/instances?status=1", 400, "status"),
        ["status given twice"] = new("/api/v1/compliance/instances?status=Compliant&status=Unknown", 400, "status"),
        ["injection in the status"] = new("/api/v1/compliance/export?status=" + E(Injection), 400, "status"),
        ["major version not a number"] = new("/api/v1/compliance/instances?majorVersion=2019x", 400, "majorVersion"),
        ["negative major version"] = new("/api/v1/compliance/instances?majorVersion=-15", 400, "majorVersion"),
        ["stale not a boolean"] = new("/api/v1/compliance/instances?stale=maybe", 400, "stale"),
        ["environment with a control character"] = new("/api/v1/compliance/export?environment=%00", 400, "environment"),
        ["owner of 129 characters"] = new("/api/v1/compliance/instances?owner=" + new string('o', 129), 400, "owner"),
        ["list limit zero"] = new("/api/v1/compliance/instances?limit=0", 400, "limit"),
        ["list limit above 500"] = new("/api/v1/compliance/instances?limit=501", 400, "limit"),
        ["bogus list cursor"] = new("/api/v1/compliance/instances?cursor=%%%", 400, "cursor"),
        ["injection in the instance key"] = new("/api/v1/compliance/instances/" + E(Injection), 400, "key"),
        ["unknown instance"] = new("/api/v1/compliance/instances/CI999", 404),
        ["growth events of an unknown instance"] = new("/api/v1/compliance/instances/CI999/growth-events", 404),
        ["from not a date"] = new("/api/v1/compliance/instances/CI001/growth-events?from=yesterday", 400, "from"),
        ["from as a US date"] = new("/api/v1/compliance/instances/CI001/growth-events?from=05/01/2025", 400, "from"),
        ["to with an invalid month"] = new("/api/v1/compliance/instances/CI001/growth-events?to=2025-13-01", 400, "to"),
        ["offset sent with an unescaped plus"] = new("/api/v1/compliance/time-lost?from=2025-05-01T00:00:00+02:00", 400, "from"),
        ["from after to"] = new("/api/v1/compliance/instances/CI001/growth-events?from=2025-06-01&to=2025-05-01", 400, "from"),
        ["from equal to to"] = new("/api/v1/compliance/time-lost?from=2025-06-01&to=2025-06-01", 400, "from"),
        ["window of 367 days"] = new("/api/v1/compliance/time-lost?from=2024-01-01&to=2025-01-02", 400, "from"),
        ["injection in from"] = new("/api/v1/compliance/time-lost?from=" + E(Injection), 400, "from"),
        ["unknown grouping"] = new("/api/v1/compliance/time-lost?groupBy=table", 400, "groupBy"),
        ["grouping in another case"] = new("/api/v1/compliance/time-lost?groupBy=Instance", 400, "groupBy"),
        ["growth event limit above 1000"] = new("/api/v1/compliance/instances/CI001/growth-events?limit=1001", 400, "limit"),
        ["forged growth event cursor"] = new("/api/v1/compliance/instances/CI001/growth-events?cursor=WyJnMSIsIngiXQ", 400, "cursor"),
        ["top zero"] = new("/api/v1/compliance/restore-risk?top=0", 400, "top"),
        ["top huge"] = new("/api/v1/compliance/restore-risk?top=99999999999", 400, "top"),
        ["export as xml"] = new("/api/v1/compliance/export", 406, Accept: "application/xml"),
        ["export with a malformed accept"] = new("/api/v1/compliance/export", 406, Accept: "text/csv;q=abc;;,,/"),
        ["bogus changes cursor"] = new("/api/v1/changes?since=not-a-cursor", 400, "since"),
        ["changes cursor with a negative id"] = new("/api/v1/changes?since=YzE6LTE6MA", 400, "since"),
        ["changes cursor of the instance list"] = new("/api/v1/changes?since=djE6MjAw", 400, "since"),
        ["changes limit above 1000"] = new("/api/v1/changes?limit=1001", 400, "limit"),
        ["changes since given twice"] = new("/api/v1/changes?since=YzE6MDow&since=YzE6MDow", 400, "since"),
        ["posting to the summary"] = new("/api/v1/compliance/summary", 405, Method: "POST"),
        ["deleting the changes feed"] = new("/api/v1/changes", 405, Method: "DELETE"),
        ["changes without a key"] = new("/api/v1/changes", 401, Key: "none"),
        ["export with an inventory-only key"] = new("/api/v1/compliance/export", 403, Key: "write"),
    };
}

/// <summary>One server with two CMDB instances, already assessed and journalled, so a read that is refused finds nothing to compute.</summary>
public sealed class ComplianceHostileFixture : IAsyncLifetime
{
    public ApiHost Host { get; } = new();
    public Dictionary<string, HttpClient> Clients { get; } = [];

    public async Task InitializeAsync()
    {
        var cmdb = await Host.CmdbClientAsync();
        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"))).EnsureSuccessStatusCode();
        (await cmdb.PutAsJsonAsync("/api/v1/instances/CI002", ApiTestData.PutBody("SQL02"))).EnsureSuccessStatusCode();
        Clients["read"] = Host.Client(await Host.CreateKeyAsync("read"));
        Clients["write"] = Host.Client(await Host.CreateKeyAsync("inventory:write"));
        Clients["none"] = Host.Client(null);
        (await Clients["read"].GetAsync("/api/v1/changes")).EnsureSuccessStatusCode();
    }

    public async Task DisposeAsync() => await Host.DisposeAsync();
}

public sealed class ComplianceHostileRequestTests(ComplianceHostileFixture fixture) : IClassFixture<ComplianceHostileFixture>
{
    public static TheoryData<string> CaseNames() => new(ComplianceHostileCatalogue.Cases.Keys);

    [Fact]
    public void The_catalogue_has_at_least_ten_cases() => Assert.True(ComplianceHostileCatalogue.Cases.Count >= 10);

    [Theory]
    [MemberData(nameof(CaseNames))]
    public async Task Hostile_read_is_a_4xx_problem_and_changes_nothing(string name)
    {
        var hostile = ComplianceHostileCatalogue.Cases[name];
        var before = await StoreDump.AllTextAsync(fixture.Host.Services);
        var request = new HttpRequestMessage(new HttpMethod(hostile.Method), hostile.Path);
        if (hostile.Accept is not null)
            request.Headers.TryAddWithoutValidation("Accept", hostile.Accept);

        var response = await fixture.Clients[hostile.Key].SendAsync(request);

        await ProblemAssert.IsProblemAsync(response, hostile.Status, hostile.Field);
        Assert.Equal(before, await StoreDump.AllTextAsync(fixture.Host.Services));
    }
}

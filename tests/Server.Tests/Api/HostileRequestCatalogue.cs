using System.Text.Json;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>A malformed or hostile request, the status it must get, and the field its problem must name (if any).</summary>
/// <param name="CollectorKey">Sent with the configured key of the collector <see cref="HostileRequestFixture.Collector"/>:
/// the collector API audits what it refuses to a known collector.</param>
public sealed record HostileRequest(string Method, string Path, string? Body, int Status, string? Field = null,
    string ContentType = "application/json", bool Chunked = false, bool ReadOnlyKey = false, bool NoKey = false,
    bool CollectorKey = false);

internal static class HostileRequestCatalogue
{
    const string Put = "/api/v1/instances/CI001";
    const string Sync = "/api/v1/instances/sync";
    const string Injection = "'; DROP TABLE instances;--";

    static string PutWith(string field, object? value) => Json(Valid(field, value));

    static Dictionary<string, object?> Valid(string field, object? value)
    {
        var body = ApiTestData.PutBody("SQL01", port: 1500);
        body[field] = value;
        return body;
    }

    static string SyncOf(params object?[] instances) => Json(new { instances });

    static Dictionary<string, object?> Item(string key, string name) => ApiTestData.Instance(name, key, port: 1600);

    static string Json(object value) => JsonSerializer.Serialize(value);

    const string Snapshots = "/api/v1/collector/snapshots";
    const string Leases = "/api/v1/collector/leases";

    /// <summary>A snapshot of the instance CMDB key CI001 (id 1), which the fixture's collector never leased.</summary>
    static string SnapshotJson(Func<InstanceSnapshot, InstanceSnapshot>? change = null)
    {
        var now = DateTimeOffset.UtcNow;
        var snapshot = new InstanceSnapshot
        {
            SnapshotId = Guid.NewGuid(),
            InstanceId = 1,
            StartedAt = now.AddSeconds(-2),
            FinishedAt = now,
            CollectorName = HostileRequestFixture.Collector,
            Services = [new ServiceInfo { ServiceName = "SQL Server (MSSQLSERVER)", ServiceAccount = @"NT Service\MSSQLSERVER", InstantFileInitializationEnabled = "Y", IsEngine = true }],
            Probes = [new ProbeOutcome(ProbeNames.Connect, OutcomeClass.Ok), new ProbeOutcome(ProbeNames.Services, OutcomeClass.Ok)],
        };
        return JsonSerializer.Serialize(change is null ? snapshot : change(snapshot), JsonSerializerOptions.Web);
    }

    static string Lease(string collector = HostileRequestFixture.Collector, int maxCount = 5, int leaseSeconds = 60) =>
        Json(new { collectorName = collector, maxCount, leaseSeconds });

    /// <summary>
    /// Built anew on every read: the snapshot cases are timed against the clock of the request ("ten minutes ahead"
    /// must still be ahead when a long run reaches it; built once, it fell inside the allowed skew after five minutes).
    /// </summary>
    public static IReadOnlyDictionary<string, HostileRequest> Cases => new Dictionary<string, HostileRequest>
    {
        ["port as a string"] = new("PUT", Put, PutWith("port", "1433"), 400, "port"),
        ["port zero"] = new("PUT", Put, PutWith("port", 0), 400, "port"),
        ["port above 65535"] = new("PUT", Put, PutWith("port", 70000), 400, "port"),
        ["negative port"] = new("PUT", Put, PutWith("port", -1), 400, "port"),
        ["port as a fraction"] = new("PUT", Put, PutWith("port", 14.33), 400, "port"),
        ["port and instance name"] = new("PUT", Put, PutWith("instanceName", "INST1"), 400, "instanceName"),
        ["sql injection in the name"] = new("PUT", Put, PutWith("name", Injection), 400, "name"),
        ["empty name"] = new("PUT", Put, PutWith("name", ""), 400, "name"),
        ["name of 129 characters"] = new("PUT", Put, PutWith("name", new string('a', 129)), 400, "name"),
        ["name with a newline"] = new("PUT", Put, PutWith("name", "SQL01\n"), 400, "name"),
        ["host with a scheme"] = new("PUT", Put, PutWith("host", "tcp://sql01.corp.example"), 400, "host"),
        ["host with a space"] = new("PUT", Put, PutWith("host", "sql01 corp"), 400, "host"),
        ["host of 254 characters"] = new("PUT", Put, PutWith("host", string.Join('.', Enumerable.Repeat(new string('a', 50), 5)) + ".abc"), 400, "host"),
        ["host as a bad ipv4"] = new("PUT", Put, PutWith("host", "999.1.1.1"), 400, "host"),
        ["host with a port"] = new("PUT", Put, PutWith("host", "sql01.corp.example,1433"), 400, "host"),
        ["unknown field"] = new("PUT", Put, PutWith("password", "hunter2"), 400, "password"),
        ["duplicate property"] = new("PUT", Put, """{"name":"SQL01","host":"a.example","name":"SQL09"}""", 400, "name"),
        ["empty body"] = new("PUT", Put, "", 400, "body"),
        ["null body"] = new("PUT", Put, "null", 400, "body"),
        ["array body"] = new("PUT", Put, "[]", 400, "body"),
        ["truncated json"] = new("PUT", Put, """{"name": "SQL01", "host": """, 400),
        ["text/plain content type"] = new("PUT", Put, PutWith("port", 1500), 415, ContentType: "text/plain"),
        ["form content type"] = new("PUT", Put, "name=SQL01&host=x", 415, ContentType: "application/x-www-form-urlencoded"),
        ["body over 64 KB"] = new("PUT", Put, PutWith("owner", new string('x', 70_000)), 413),
        ["chunked body over 64 KB"] = new("PUT", Put, PutWith("owner", new string('x', 70_000)), 413, Chunked: true),
        ["33 tags"] = new("PUT", Put, PutWith("tags", Enumerable.Range(0, 33).Select(i => $"t{i}").ToArray()), 400, "tags"),
        ["tag of 65 characters"] = new("PUT", Put, PutWith("tags", new[] { new string('t', 65) }), 400, "tags[0]"),
        ["tag with a control character"] = new("PUT", Put, PutWith("tags", new[] { "ok", "bad\u0000tag" }), 400, "tags[1]"),
        ["duplicate tags"] = new("PUT", Put, PutWith("tags", new[] { "pci", "PCI" }), 400, "tags[1]"),
        ["tags as a string"] = new("PUT", Put, PutWith("tags", "tier1"), 400, "tags"),
        ["tags nested deeply"] = new("PUT", Put, """{"name":"SQL01","host":"a.example","tags":[[[[[[[[[[[[[[[[[[[["x"]]]]]]]]]]]]]]]]]]]]}""", 400, "tags[0]"),
        ["unknown encrypt mode"] = new("PUT", Put, PutWith("encrypt", "Bogus"), 400, "encrypt"),
        ["encrypt as a number"] = new("PUT", Put, PutWith("encrypt", 1), 400, "encrypt"),
        ["trustServerCertificate as a string"] = new("PUT", Put, PutWith("trustServerCertificate", "yes"), 400, "trustServerCertificate"),
        ["poll interval below 30"] = new("PUT", Put, PutWith("pollIntervalSeconds", 5), 400, "pollIntervalSeconds"),
        ["poll interval above a day"] = new("PUT", Put, PutWith("pollIntervalSeconds", 86_401), 400, "pollIntervalSeconds"),
        ["credential name with a path"] = new("PUT", Put, PutWith("credentialName", "../etc/passwd"), 400, "credentialName"),
        ["credential name with a colon"] = new("PUT", Put, PutWith("credentialName", "Credentials:admin"), 400, "credentialName"),
        ["credential name a shell cannot export"] = new("PUT", Put, PutWith("credentialName", "fleet.reader"), 400, "credentialName"),
        ["environment of 129 characters"] = new("PUT", Put, PutWith("environment", new string('e', 129)), 400, "environment"),
        ["injection in the url key"] = new("PUT", "/api/v1/instances/" + Uri.EscapeDataString(Injection), PutWith("port", 1500), 400, "externalKey"),
        ["body key differs from url key"] = new("PUT", Put, PutWith("externalKey", "CI999"), 400, "externalKey"),
        ["sync with duplicate external keys"] = new("POST", Sync, SyncOf(Item("CI010", "SQL10"), Item("CI010", "SQL11")), 400, "instances[1].externalKey"),
        ["sync with duplicate names"] = new("POST", Sync, SyncOf(Item("CI010", "SQL10"), Item("CI011", "sql10")), 400, "instances[1].name"),
        ["sync with one bad port among good items"] = new("POST", Sync,
            SyncOf(Item("CI001", "SQL01"), Item("CI010", "SQL10"), Item("CI011", "SQL11"), ApiTestData.Instance("SQL12", "CI012", port: 0)), 400, "instances[3].port"),
        ["sync item with a wrong type"] = new("POST", Sync, """{"instances":[{"externalKey":"CI010","name":"SQL10","host":"a.example","port":"x"}]}""", 400, "instances[0].port"),
        ["sync item without a key"] = new("POST", Sync, SyncOf(ApiTestData.Instance("SQL10")), 400, "instances[0].externalKey"),
        ["sync without instances"] = new("POST", Sync, """{"dryRun": false}""", 400, "instances"),
        ["sync instances as an object"] = new("POST", Sync, """{"instances": {}}""", 400, "instances"),
        ["sync null item"] = new("POST", Sync, """{"instances": [null]}""", 400, "instances[0]"),
        ["sync dryRun as a string"] = new("POST", Sync, """{"instances": [], "dryRun": "yes"}""", 400, "dryRun"),
        ["sync unknown field"] = new("POST", Sync, """{"instances": [], "deleteEverything": true}""", 400, "deleteEverything"),
        ["sync body over the limit"] = new("POST", Sync, SyncOf(Enumerable.Range(0, 8000).Select(i => (object?)Item($"K{i}", $"N{i}")).ToArray()), 413),
        ["sync as xml"] = new("POST", Sync, "<instances/>", 415, ContentType: "application/xml"),
        ["negative limit"] = new("GET", "/api/v1/instances?limit=-1", null, 400, "limit"),
        ["limit zero"] = new("GET", "/api/v1/instances?limit=0", null, 400, "limit"),
        ["limit not a number"] = new("GET", "/api/v1/instances?limit=abc", null, 400, "limit"),
        ["limit given twice"] = new("GET", "/api/v1/instances?limit=1&limit=2", null, 400, "limit"),
        ["bogus cursor"] = new("GET", "/api/v1/instances?cursor=not-a-cursor", null, 400, "cursor"),
        ["forged cursor"] = new("GET", "/api/v1/instances?cursor=" + Convert.ToBase64String("v1:-5"u8.ToArray()), null, 400, "cursor"),
        ["includeRetired not a boolean"] = new("GET", "/api/v1/instances?includeRetired=maybe", null, 400, "includeRetired"),
        ["search with a control character"] = new("GET", "/api/v1/instances?q=%00", null, 400, "q"),
        ["api key with an unknown scope"] = new("POST", "/api/v1/api-keys", """{"name":"x","scopes":["root"]}""", 400, "scopes[0]"),
        ["api key without scopes"] = new("POST", "/api/v1/api-keys", """{"name":"x","scopes":[]}""", 400, "scopes"),
        ["unknown api route"] = new("GET", "/api/v1/nothing-here", null, 404),
        ["unsupported method"] = new("PATCH", Put, PutWith("port", 1500), 405),
        ["put without a key"] = new("PUT", Put, PutWith("port", 1500), 401, NoKey: true),
        ["sync with a read-only key"] = new("POST", Sync, SyncOf(), 403, ReadOnlyKey: true),
        ["delete with a read-only key"] = new("DELETE", Put, null, 403, ReadOnlyKey: true),

        // The collector API: a key acts for its own collector, on instances that collector leased, in the present.
        ["snapshot dated 2099"] = new("POST", Snapshots, SnapshotJson(s => s with { StartedAt = new(2099, 1, 1, 0, 0, 0, TimeSpan.Zero), FinishedAt = new(2099, 1, 1, 0, 0, 5, TimeSpan.Zero) }), 400, "finishedAt", CollectorKey: true),
        ["snapshot ten minutes ahead of the server"] = new("POST", Snapshots, SnapshotJson(s => s with { FinishedAt = DateTimeOffset.UtcNow.AddMinutes(10) }), 400, "finishedAt", CollectorKey: true),
        ["snapshot finished before it started"] = new("POST", Snapshots, SnapshotJson(s => s with { StartedAt = s.FinishedAt.AddMinutes(1) }), 400, "finishedAt", CollectorKey: true),
        ["snapshot of an instance the collector never leased"] = new("POST", Snapshots, SnapshotJson(), 409, CollectorKey: true),
        ["snapshot of an instance that does not exist"] = new("POST", Snapshots, SnapshotJson(s => s with { InstanceId = 999_999 }), 409, CollectorKey: true),
        ["snapshot naming another collector"] = new("POST", Snapshots, SnapshotJson(s => s with { CollectorName = "someone-else" }), 403, CollectorKey: true),
        ["snapshot without an id"] = new("POST", Snapshots, SnapshotJson(s => s with { SnapshotId = Guid.Empty }), 400, "snapshotId", CollectorKey: true),
        ["snapshot with an unknown field"] = new("POST", Snapshots, """{"snapshotId":"6f1c2a8e-0000-4000-8000-000000000001","instanceId":1,"ifiOverride":"Y"}""", 400, "ifiOverride", CollectorKey: true),
        ["snapshot over the size limit"] = new("POST", Snapshots, SnapshotJson(s => s with { Services = [.. Enumerable.Range(0, 2000).Select(i => new ServiceInfo { ServiceName = $"padding service {i:0000} " + new string('x', 40), ServiceAccount = "padding" })] }), 413, CollectorKey: true),
        ["chunked snapshot over the size limit"] = new("POST", Snapshots, SnapshotJson(s => s with { Services = [.. Enumerable.Range(0, 2000).Select(i => new ServiceInfo { ServiceName = $"padding service {i:0000} " + new string('x', 40), ServiceAccount = "padding" })] }), 413, Chunked: true, CollectorKey: true),
        // Refused by routing (the endpoint accepts JSON only) before any key is read: not a collector's request yet.
        ["snapshot as text/plain"] = new("POST", Snapshots, SnapshotJson(), 415, ContentType: "text/plain"),
        ["lease for another collector's name"] = new("POST", Leases, Lease(collector: "made-up-collector"), 403, CollectorKey: true),
        ["lease of 5000 instances at once"] = new("POST", Leases, Lease(maxCount: 5000), 400, "maxCount", CollectorKey: true),
        ["lease for a year"] = new("POST", Leases, Lease(leaseSeconds: 31_536_000), 400, "leaseSeconds", CollectorKey: true),
        ["lease request over the size limit"] = new("POST", Leases, Json(new { collectorName = HostileRequestFixture.Collector, maxCount = 1, leaseSeconds = 60, padding = new string('x', 20_000) }), 413, CollectorKey: true),
        ["release of another collector's leases"] = new("POST", Leases + "/release", Json(new { collectorName = "made-up-collector" }), 403, CollectorKey: true),
        ["completion of another collector's lease"] = new("POST", Leases + "/1/complete", Json(new { collectorName = "made-up-collector", nextPollAt = "2099-01-01T00:00:00Z" }), 403, CollectorKey: true),
        ["collector request without a key"] = new("POST", Leases, Lease(), 401, NoKey: true),
        ["collector request with a read-only key"] = new("POST", Leases, Lease(), 403, ReadOnlyKey: true),
    };
}

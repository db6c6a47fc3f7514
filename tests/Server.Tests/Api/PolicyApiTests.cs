using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using System.Text.RegularExpressions;
using IfiDashboard.Server.Api.Policy;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Tests.Deployment;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>
/// Policy and waivers through <c>/api/v1/policy</c> and <c>/api/v1/waivers</c>: read with <c>read</c>, changed with
/// <c>policy:write</c> under the policy page's roles, four-eyes rule and audit.
/// </summary>
public sealed class PolicyApiTests
{
    static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web) { Converters = { new System.Text.Json.Serialization.JsonStringEnumConverter() } };

    static ApiHost FourEyesHost() => new(builder => builder.UseSetting("Auth:WaiversNeedApproval", "true"));

    static async Task RegisterAsync(ApiHost host, string key, string name)
    {
        var response = await (await host.CmdbClientAsync()).PutAsJsonAsync($"/api/v1/instances/{key}", ApiTestData.PutBody(name));
        response.EnsureSuccessStatusCode();
    }

    static object Grant(string instance, string reason, DateTimeOffset expiresAt) => new { instance, reason, expiresAt };

    static async Task<WaiverResponse> ReadWaiverAsync(HttpResponseMessage response) =>
        (await response.Content.ReadFromJsonAsync<WaiverResponse>(Web))!;

    [Fact]
    public async Task A_key_grants_a_waiver_that_counts_only_once_another_identity_approves_it_and_both_are_audited()
    {
        await using var host = FourEyesHost();
        await RegisterAsync(host, "CI007", "SQL07");
        var granter = host.Client(await host.CreateKeyAsync("policy:write"));
        var approver = host.Client(await host.CreateKeyAsync("policy:write"));
        var reader = host.Client(await host.CreateKeyAsync("read"));
        var expires = DateTimeOffset.UtcNow.AddDays(14);

        var granted = await granter.PostAsJsonAsync("/api/v1/waivers", Grant("CI007", "CHG-4711 vendor upgrade", expires));
        var waiver = await ReadWaiverAsync(granted);
        var selfApproval = await granter.PostAsync($"/api/v1/waivers/{waiver.Id}/approve", null);
        var pending = await reader.GetFromJsonAsync<WaiverResponse>($"/api/v1/waivers/{waiver.Id}", Web);
        var approved = await approver.PostAsync($"/api/v1/waivers/{waiver.Id}/approve", null);
        var again = await approver.PostAsync($"/api/v1/waivers/{waiver.Id}/approve", null);
        var listed = await reader.GetFromJsonAsync<List<WaiverResponse>>("/api/v1/waivers", Web);

        Assert.Equal(HttpStatusCode.Created, granted.StatusCode);
        Assert.Equal($"/api/v1/waivers/{waiver.Id}", granted.Headers.Location?.OriginalString);
        Assert.Equal(("CI007", "SQL07", WaiverState.AwaitingApproval), (waiver.ExternalKey, waiver.InstanceName, waiver.State));
        await ProblemAssert.IsProblemAsync(selfApproval, 403, null);
        Assert.Contains("needs the approval of someone else", await selfApproval.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(WaiverState.AwaitingApproval, pending!.State);
        Assert.Equal(HttpStatusCode.OK, approved.StatusCode);
        var active = await ReadWaiverAsync(approved);
        Assert.Equal(WaiverState.Active, active.State);
        Assert.Matches(@"^test-policy\.write \(API key \w+\)$", active.ApprovedBy);
        Assert.NotEqual(active.Author, active.ApprovedBy);
        await ProblemAssert.IsProblemAsync(again, 409, null);
        Assert.Equal(waiver.Id, Assert.Single(listed!).Id);

        var audit = host.Services.GetRequiredService<AuditLog>();
        var entries = await audit.QueryAsync(new AuditFilter(), null, 500, CancellationToken.None);
        var grant = Assert.Single(entries, e => e.Action == AuditActions.WaiverGranted);
        var approval = Assert.Single(entries, e => e.Action == AuditActions.WaiverApproved);
        Assert.EndsWith("@api-key", grant.ActorIdentity, StringComparison.Ordinal);
        Assert.NotEqual(grant.ActorIdentity, approval.ActorIdentity);
    }

    [Fact]
    public async Task Refused_changes_answer_problems_and_change_nothing()
    {
        await using var host = new ApiHost();
        await RegisterAsync(host, "CI007", "SQL07");
        var reader = host.Client(await host.CreateKeyAsync("read"));
        var writer = host.Client(await host.CreateKeyAsync("policy:write"));
        var viewer = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Viewer);
        var tooLong = DateTimeOffset.UtcNow.AddDays(365);

        var byReader = await reader.PostAsJsonAsync("/api/v1/waivers", Grant("CI007", "CHG-1", DateTimeOffset.UtcNow.AddDays(3)));
        var byViewer = await viewer.PostAsJsonAsync("/api/v1/waivers", Grant("CI007", "CHG-1", DateTimeOffset.UtcNow.AddDays(3)));
        var longerThanAnOperatorMay = await writer.PostAsJsonAsync("/api/v1/waivers", Grant("CI007", "CHG-2", tooLong));
        var noReason = await writer.PostAsJsonAsync("/api/v1/waivers", Grant("CI007", " ", DateTimeOffset.UtcNow.AddDays(3)));
        var past = await writer.PostAsJsonAsync("/api/v1/waivers", Grant("CI007", "CHG-3", DateTimeOffset.UtcNow.AddDays(-1)));
        var unknown = await writer.PostAsJsonAsync("/api/v1/waivers", Grant("CI999", "CHG-4", DateTimeOffset.UtcNow.AddDays(3)));
        var rulesByOperatorKey = await writer.PutAsJsonAsync("/api/v1/policy/rules", new { rules = new[] { new { name = "prod", desired = "Required" } } });
        var revokeMissing = await writer.DeleteAsync("/api/v1/waivers/4242");

        await ProblemAssert.IsProblemAsync(byReader, 403, null);
        await ProblemAssert.IsProblemAsync(byViewer, 403, null);
        await ProblemAssert.IsProblemAsync(longerThanAnOperatorMay, 403, null);
        Assert.Contains("needs an Administrator", await longerThanAnOperatorMay.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        await ProblemAssert.IsProblemAsync(noReason, 400, "reason");
        await ProblemAssert.IsProblemAsync(past, 400, "expiresAt");
        await ProblemAssert.IsProblemAsync(unknown, 400, "instance");
        await ProblemAssert.IsProblemAsync(rulesByOperatorKey, 403, null);
        await ProblemAssert.IsProblemAsync(revokeMissing, 404, null);
        Assert.Empty((await reader.GetFromJsonAsync<List<WaiverResponse>>("/api/v1/waivers", Web))!);
        Assert.Equal(0, (await reader.GetFromJsonAsync<PolicyResponse>("/api/v1/policy", Web))!.Version);
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(), null, 500, CancellationToken.None);
        Assert.DoesNotContain(audit, e => e.Action.StartsWith("waiver.", StringComparison.Ordinal) || e.Action == AuditActions.PolicySaved);
    }

    [Fact]
    public async Task Rules_are_saved_by_an_administrators_key_under_the_pages_rule_set_and_read_with_read()
    {
        await using var host = new ApiHost();
        var admin = host.Client(await host.CreateKeyAsync("policy:write", "admin"));
        var reader = host.Client(await host.CreateKeyAsync("read"));

        var duplicate = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"prod","desired":"Required","environment":"Production"},{"name":"PROD","desired":"Forbidden"}]}"""));
        var number = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json("""{"rules":[{"name":"prod","desired":1}]}"""));
        var saved = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"pci","desired":"Forbidden","tags":["pci"]},{"name":"prod","desired":"Required","environment":"Production"}]}"""));
        var policy = await reader.GetFromJsonAsync<PolicyResponse>("/api/v1/policy", Web);

        await ProblemAssert.IsProblemAsync(duplicate, 400, "rules[1].name");
        await ProblemAssert.IsProblemAsync(number, 400, "rules[0].desired");
        Assert.Equal(HttpStatusCode.OK, saved.StatusCode);
        Assert.Equal(1, (await saved.Content.ReadFromJsonAsync<SavedPolicyResponse>())!.Version);
        Assert.Equal(1, policy!.Version);
        Assert.Equal(["pci", "prod"], policy.Rules.Select(r => r.Name));
        Assert.Equal(["pci"], policy.Rules[0].Tags);
        Assert.Equal("Production", policy.Rules[1].Environment);
    }

    [Fact]
    public async Task Host_selectors_round_trip_and_a_bad_value_is_refused_naming_its_field_and_saving_nothing()
    {
        await using var host = new ApiHost();
        var admin = host.Client(await host.CreateKeyAsync("policy:write", "admin"));
        var reader = host.Client(await host.CreateKeyAsync("read"));

        var badPlatform = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"ok","desired":"Required"},{"name":"lnx","desired":"Forbidden","platforms":["Solaris"]}]}"""));
        var badVersion = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"old","desired":"Forbidden","versions":["2022-2016"]}]}"""));
        var badEdition = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"ed","desired":"Forbidden","editions":["Datacenter"]}]}"""));
        var badCluster = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"ag","desired":"Forbidden","clusters":["Standalone,FailoverCluster"]}]}"""));
        var azureForbidden = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"az","desired":"Forbidden","platforms":["AzureSqlDatabase"]}]}"""));
        var unchanged = await reader.GetFromJsonAsync<PolicyResponse>("/api/v1/policy", Web);
        var saved = await admin.PutAsync("/api/v1/policy/rules", HttpContentExtensions.Json(
            """{"rules":[{"name":"Linux PCI","desired":"Forbidden","tags":["pci"],"platforms":["linux"]},""" +
            """{"name":"Old Standard AG secondaries","desired":"NotApplicable","versions":["2016 - 2019","2022+"],"editions":["Standard"],"clusters":["AvailabilityGroupSecondary"]}]}"""));
        var policy = await reader.GetFromJsonAsync<PolicyResponse>("/api/v1/policy", Web);

        await ProblemAssert.IsProblemAsync(badPlatform, 400, "rules[1].platforms");
        Assert.Contains("'Solaris' is not one of Windows, Linux", await badPlatform.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        await ProblemAssert.IsProblemAsync(badVersion, 400, "rules[0].versions");
        await ProblemAssert.IsProblemAsync(badEdition, 400, "rules[0].editions");
        await ProblemAssert.IsProblemAsync(badCluster, 400, "rules[0].clusters");
        await ProblemAssert.IsProblemAsync(azureForbidden, 400, "rules[0].platforms");
        Assert.Equal(0, unchanged!.Version);
        Assert.Equal(HttpStatusCode.OK, saved.StatusCode);
        Assert.Equal(1, policy!.Version);
        Assert.Equal(["Linux"], policy.Rules[0].Platforms);
        Assert.Equal(["pci"], policy.Rules[0].Tags);
        Assert.Equal(["2016-2019", "2022+"], policy.Rules[1].Versions);
        Assert.Equal(["Standard"], policy.Rules[1].Editions);
        Assert.Equal(["AvailabilityGroupSecondary"], policy.Rules[1].Clusters);
        var audit = await host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(), null, 500, CancellationToken.None);
        var entry = Assert.Single(audit, e => e.Action == AuditActions.PolicySaved);
        Assert.Contains("AvailabilityGroupSecondary", entry.After, StringComparison.Ordinal);
    }

    /// <summary>docs/api.md's change-ticket example, run as written with bash, curl and jq against the server on a real socket.</summary>
    [Fact]
    public async Task The_change_ticket_example_in_the_api_docs_grants_a_time_boxed_waiver_a_second_key_approves()
    {
        await using var host = FourEyesHost();
        host.UseKestrel(0);
        host.StartServer();
        var address = host.Services.GetRequiredService<Microsoft.AspNetCore.Hosting.Server.IServer>().Features
            .Get<Microsoft.AspNetCore.Hosting.Server.Features.IServerAddressesFeature>()!.Addresses.First();
        await RegisterAsync(host, "CI007", "SQL07");
        var key = await host.CreateKeyAsync("policy:write");
        var approverKey = await host.CreateKeyAsync("policy:write");

        var docs = await File.ReadAllTextAsync(Path.Combine(RepositoryRoot.Path, "docs", "api.md"));
        var section = docs[docs.IndexOf("### Example: a change ticket grants a time-boxed waiver", StringComparison.Ordinal)..];
        var script = Regex.Match(section, "```sh\n(?<script>.*?)```", RegexOptions.Singleline).Groups["script"].Value;
        var start = new ProcessStartInfo("bash", ["-euo", "pipefail", "-c", script])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            Environment = { ["IFI"] = address.TrimEnd('/'), ["KEY"] = key, ["APPROVER_KEY"] = approverKey },
        };
        using var bash = Process.Start(start)!;
        var output = bash.StandardOutput.ReadToEndAsync();
        var error = bash.StandardError.ReadToEndAsync();
        await bash.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(120));

        Assert.True(bash.ExitCode == 0, $"the example failed ({bash.ExitCode}): {await error}\n{await output}");
        var waiver = Assert.Single((await host.Client(await host.CreateKeyAsync("read")).GetFromJsonAsync<List<WaiverResponse>>("/api/v1/waivers", Web))!);
        Assert.Equal(("CI007", WaiverState.Active), (waiver.ExternalKey, waiver.State));
        Assert.StartsWith("CHG-4711", waiver.Reason, StringComparison.Ordinal);
        Assert.InRange(waiver.ExpiresAt, waiver.GrantedAt.AddDays(13), waiver.GrantedAt.AddDays(15));
        Assert.Contains("\"state\":\"Active\"", await output, StringComparison.Ordinal);
    }
}

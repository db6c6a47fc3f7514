using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using AngleSharp.Html.Parser;
using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Server.Remediation;
using IfiDashboard.Store;
using IfiDashboard.Store.Audit;
using IfiDashboard.Store.Policy;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Remediation;

/// <summary>
/// Remediation packs for a simulated fleet polled by the real collector over TCP: the script and the plan follow each
/// instance's state (start account, service SID, cluster nodes, restart, verify per build), hostile account names stay
/// literals, and an instance fixed in the simulator turns Compliant on its next poll, clearing "remediation pending".
/// </summary>
public sealed class RemediationPackTests : IAsyncLifetime
{
    /// <summary>Every character PowerShell would act on inside double quotes or as code, and all four of its single quotes.</summary>
    const string HostileAccount = "CORP\\o'brien $(Stop-Computer) `whoami` \u2018x\u2019 \u201Ay\u201B; # z";

    readonly DashboardHost _host = new(
        new ScenarioInstance { Name = "sql-grant", Profile = "2019", IfiEnabled = false, ServiceAccount = @"CORP\svc-sql", MachineName = "SQLHOST1" },
        new ScenarioInstance
        {
            Name = "sql-pci", Profile = "2022", IfiEnabled = true, ServiceAccount = HostileAccount, MachineName = "PCIHOST",
            Inventory = new ScenarioInventory { Environment = "Test", Tags = ["pci"] },
        },
        new ScenarioInstance
        {
            Name = "fci-sales", Profile = "2019", IfiEnabled = false, InstanceName = "SALES",
            ServiceAccount = @"NT Service\MSSQL$SALES", ClusterNodes = ["SQLNODE2", "SQLNODE1"],
        },
        new ScenarioInstance { Name = "sp2-off", Profile = "2014-SP2", IfiEnabled = false, MachineName = "OLDHOST" },
        new ScenarioInstance { Name = "ok", Profile = "2019", IfiEnabled = true },
        new ScenarioInstance { Name = "waived-off", Profile = "2019", IfiEnabled = false });

    public async Task InitializeAsync()
    {
        await _host.RegisterFleetAsync();
        await _host.Services.GetRequiredService<PolicyStore>().SaveRulesAsync(
            [new PolicyRule { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci"] }], "test", CancellationToken.None);
        var now = DateTimeOffset.UtcNow;
        await _host.Services.GetRequiredService<PolicyStore>().GrantWaiverAsync(new Waiver
        {
            InstanceId = _host.IdOf("waived-off"), Reason = "CHG-1", Author = "test", GrantedAt = now.AddHours(-1), ExpiresAt = now.AddDays(10),
        }, CancellationToken.None);
        await PollAndAssessAsync();
        // The first statuses go to the changes journal here, not between the before and after of a refused request.
        await _host.Services.GetRequiredService<IfiDashboard.Server.Api.Changes.ChangeRecorder>().CatchUpAsync(CancellationToken.None);
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    async Task PollAndAssessAsync()
    {
        await using (var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            await connection.ExecuteAsync("UPDATE instances SET next_poll_at = NULL WHERE retired_at IS NULL;");
        await _host.PollAllAsync();
        await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    HttpClient Operator() => TestSignIn.AsRole(_host.CreateClient(), DashboardRoles.Operator);

    [Fact]
    public async Task The_script_for_the_fleet_matches_what_each_instance_needs()
    {
        var script = await Operator().GetStringAsync("/api/v1/remediation");
        var entries = PowerShellPack.Read(script).ToDictionary(e => e.Text("Instance"));

        Assert.Equal(["fci-sales", "sp2-off", "sql-grant", "sql-pci"], entries.Keys.Order());
        var grant = entries["sql-grant"];
        Assert.Equal(("Grant", "MSSQLSERVER", "Production"), (grant.Text("Action"), grant.Text("Service"), grant.Text("Environment")));
        // The right goes to the service SID, not to the domain account everything else running as it would share.
        Assert.Equal([@"NT Service\MSSQLSERVER"], grant.List("Principals"));
        Assert.Equal(["SQLHOST1"], grant.List("Hosts"));
        Assert.Equal("Restart-Service -Name 'MSSQLSERVER' -Force", grant.Text("RestartCommand"));
        Assert.Contains("sys.dm_server_services", grant.Text("Verify"));
        Assert.Contains("'Y'", grant.Text("Verify"));

        var revoke = entries["sql-pci"];
        Assert.Equal(("Revoke", "Test"), (revoke.Text("Action"), revoke.Text("Environment")));
        Assert.Equal([@"NT Service\MSSQLSERVER", HostileAccount], revoke.List("Principals"));
        Assert.Equal(["PCIHOST"], revoke.List("Hosts"));
        Assert.Contains("'N'", revoke.Text("Verify"));

        var cluster = entries["fci-sales"];
        Assert.Equal([@"NT Service\MSSQL$SALES"], cluster.List("Principals"));
        Assert.Equal(["SQLNODE2", "SQLNODE1"], cluster.List("Hosts"));
        Assert.Equal("SQL Server (SALES)", cluster.Nullable("ClusterRole"));
        Assert.Equal("Move-ClusterGroup -Name 'SQL Server (SALES)' -Node 'SQLNODE1'", cluster.Text("RestartCommand"));

        var legacy = entries["sp2-off"];
        Assert.Contains("sp_readerrorlog", legacy.Text("Verify"));
        Assert.DoesNotContain("sys.dm_server_services", legacy.Text("Verify"));

        var plan = await Operator().GetStringAsync("/api/v1/remediation?format=plan");
        var clusterSection = plan.Split("### fci-sales")[1].Split("###")[0];
        Assert.Contains("every possible owner node of the failover cluster instance, SQLNODE2, SQLNODE1", clusterSection);
        Assert.Contains("Move-ClusterGroup -Name 'SQL Server (SALES)' -Node 'SQLNODE1'", clusterSection);
        Assert.DoesNotContain("Restart-Service -Name", clusterSection);
        Assert.Contains("not the start account CORP\\svc-sql", plan.Split("### sql-grant")[1]);
        Assert.Contains("- waived-off: waived until", plan);
        Assert.Contains("# Skipped ok: compliant: nothing to do", script);
        Assert.Contains("# Skipped waived-off: waived until", script);
        Assert.True(script.IndexOf("# Maintenance window: Production", StringComparison.Ordinal)
                    < script.IndexOf("# Maintenance window: Test", StringComparison.Ordinal));
    }

    [Fact]
    public async Task A_pack_for_the_grids_policy_filter_holds_only_the_instances_under_that_policy()
    {
        var script = await Operator().GetStringAsync("/api/v1/remediation?policy=forbidden");

        Assert.Equal(["sql-pci"], PowerShellPack.Read(script).Select(e => e.Text("Instance")));
    }

    [Fact]
    public async Task Hostile_account_names_stay_inside_literals_in_the_script_and_escaped_in_the_plan()
    {
        var client = Operator();
        var script = await client.GetStringAsync("/api/v1/remediation?q=sql-pci");
        var plan = await client.GetStringAsync("/api/v1/remediation?q=sql-pci&format=plan");

        var code = PowerShellPack.CodeOutsideLiterals(script);
        Assert.Equal(HostileAccount, PowerShellPack.Read(script).Single().List("Principals")[1]);
        Assert.DoesNotContain("Stop-Computer", code);
        Assert.DoesNotContain("whoami", code);
        Assert.Contains(@"CORP\o'brien $(Stop-Computer) \`whoami\` ‘x’ ‚y‛; # z", plan);
        Assert.Contains("Revoke from: NT Service\\MSSQLSERVER, CORP", plan);
    }

    [Fact]
    public async Task A_pack_from_an_instance_page_is_recorded_and_shows_pending_until_a_poll_confirms_it()
    {
        var client = Operator();
        var id = _host.IdOf("sql-grant");
        var token = await TestSignIn.FormTokenAsync(client);
        using var response = await client.PostAsync("/" + RemediationEndpoints.FormPath, new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [RemediationEndpoints.InstanceKey] = id.ToString(System.Globalization.CultureInfo.InvariantCulture),
            [RemediationEndpoints.FormatKey] = "plan",
            ["__RequestVerificationToken"] = token,
        }));
        var plan = await response.Content.ReadAsStringAsync();
        var packId = long.Parse(response.Headers.GetValues(RemediationEndpoints.PackIdHeader).Single(), System.Globalization.CultureInfo.InvariantCulture);
        var pending = (await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None)).Find(id)!;
        var page = new HtmlParser().ParseDocument(await client.GetStringAsync($"/instances/{id}"));
        var grid = new HtmlParser().ParseDocument(await client.GetStringAsync("/instances?q=sql-grant"));
        var audit = (await _host.Services.GetRequiredService<AuditLog>().QueryAsync(new AuditFilter(Action: AuditActions.RemediationGenerated), null, 10, CancellationToken.None)).Single();

        _host.Fleet.Update("sql-grant", i => i.IfiEnabled = true);
        await PollAndAssessAsync();
        var fixedNow = (await _host.Services.GetRequiredService<FleetAssessments>().GetAsync(CancellationToken.None)).Find(id)!;
        var pageAfter = new HtmlParser().ParseDocument(await client.GetStringAsync($"/instances/{id}"));
        var status = await client.GetFromJsonAsync<JsonElement>($"/api/v1/remediation/packs/{packId}");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Contains("### sql-grant", plan);
        Assert.Equal(ComplianceStatus.NonCompliant, pending.Compliance.Status);
        Assert.Equal((packId, TestSignIn.UserName(DashboardRoles.Operator)), (pending.RemediationPending!.PackId, pending.RemediationPending.GeneratedBy));
        Assert.NotNull(page.QuerySelector("[data-remediation-pending]"));
        Assert.NotNull(Functional.FleetGrid.Cell(grid, "sql-grant", "status")?.QuerySelector("[data-remediation-pending]"));
        Assert.Equal("sql-grant", grid.QuerySelector("form[data-remediation-pack] input[name=q]")?.GetAttribute("value"));
        Assert.NotEmpty(page.QuerySelector("form[data-remediation-pack] input[name=__RequestVerificationToken]")?.GetAttribute("value") ?? "");
        Assert.Equal((TestSignIn.UserName(DashboardRoles.Operator), $"remediation pack {packId}"), (audit.Actor, audit.Target));
        Assert.Contains("sql-grant", audit.After);

        Assert.Equal(ComplianceStatus.Compliant, fixedNow.Compliance.Status);
        Assert.Null(fixedNow.RemediationPending);
        Assert.Null(pageAfter.QuerySelector("[data-remediation-pending]"));
        var instance = status.GetProperty("instances").EnumerateArray().Single();
        Assert.Equal(("sql-grant", "confirmed"), (instance.GetProperty("name").GetString(), instance.GetProperty("status").GetString()));
    }

    [Fact]
    public async Task A_view_with_nothing_to_change_records_nothing_and_bad_input_is_a_problem()
    {
        var client = Operator();
        using var compliant = await client.GetAsync("/api/v1/remediation?status=Compliant&format=json");
        using var bad = await client.GetAsync("/api/v1/remediation?format=exe&instance=-1&status=Green&policy=Sometimes");
        using var missing = await client.GetAsync("/api/v1/remediation?instance=999999");
        var problem = await bad.Content.ReadFromJsonAsync<JsonElement>();
        var packs = await CountPacksAsync();

        Assert.Equal(HttpStatusCode.OK, compliant.StatusCode);
        Assert.False(compliant.Headers.Contains(RemediationEndpoints.PackIdHeader));
        Assert.Equal(HttpStatusCode.BadRequest, bad.StatusCode);
        Assert.Equal("application/problem+json", bad.Content.Headers.ContentType?.MediaType);
        Assert.Equal(["format", "instance", "policy", "status"], problem.GetProperty("errors").EnumerateObject().Select(p => p.Name).Order());
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Equal(0, packs);
    }

    [Fact]
    public async Task A_viewer_is_refused_the_pack_and_nothing_is_stored()
    {
        var viewer = TestSignIn.AsRole(_host.CreateClient(), DashboardRoles.Viewer);
        var token = await TestSignIn.FormTokenAsync(viewer);
        var before = await StoreDump.AllTextAsync(_host.Services);

        using var form = await viewer.PostAsync("/" + RemediationEndpoints.FormPath, new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [RemediationEndpoints.InstanceKey] = _host.IdOf("sql-grant").ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["__RequestVerificationToken"] = token,
        }));
        using var api = await viewer.GetAsync("/api/v1/remediation");
        using var withoutToken = await Operator().PostAsync("/" + RemediationEndpoints.FormPath, new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [RemediationEndpoints.InstanceKey] = _host.IdOf("sql-grant").ToString(System.Globalization.CultureInfo.InvariantCulture),
        }));
        var grid = new HtmlParser().ParseDocument(await viewer.GetStringAsync("/instances"));

        Assert.Equal(HttpStatusCode.Forbidden, form.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, api.StatusCode);
        Assert.Equal("application/problem+json", api.Content.Headers.ContentType?.MediaType);
        Assert.Equal(HttpStatusCode.BadRequest, withoutToken.StatusCode);
        Assert.Null(grid.QuerySelector("[data-remediation-pack]"));
        Assert.Equal(before, await StoreDump.AllTextAsync(_host.Services));
    }

    [Fact]
    public async Task A_get_only_previews_the_pack_and_a_post_with_the_write_scope_records_it()
    {
        var id = _host.IdOf("sql-grant");
        var issuer = _host.Services.GetRequiredService<IfiDashboard.Server.Api.Keys.ApiKeyIssuer>();
        var (_, readKey) = await issuer.CreateAsync("previewer", ["remediation:read"], null, CancellationToken.None);
        var (_, writeKey) = await issuer.CreateAsync("change-board", ["remediation:write"], null, CancellationToken.None);
        HttpClient WithKey(string key)
        {
            var client = _host.CreateClient();
            client.DefaultRequestHeaders.Add("X-Api-Key", key);
            return client;
        }
        var view = new Dictionary<string, object> { [RemediationEndpoints.InstanceKey] = id, [RemediationEndpoints.FormatKey] = "json" };

        using var preview = await Operator().GetAsync($"/api/v1/remediation?instance={id}&format=json");
        var previewed = await preview.Content.ReadFromJsonAsync<JsonElement>();
        var afterPreview = await CountPacksAsync();
        var pendingAfterPreview = (await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None)).Find(id)!.RemediationPending;
        using var readOnly = await WithKey(readKey).PostAsJsonAsync("/api/v1/remediation", view);
        using var asForm = await WithKey(writeKey).PostAsync("/api/v1/remediation", new FormUrlEncodedContent(new Dictionary<string, string>
        {
            [RemediationEndpoints.InstanceKey] = id.ToString(System.Globalization.CultureInfo.InvariantCulture),
        }));
        var afterRefusals = await CountPacksAsync();
        using var recorded = await WithKey(writeKey).PostAsJsonAsync("/api/v1/remediation", view);
        var pack = await recorded.Content.ReadFromJsonAsync<JsonElement>();
        var pending = (await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None)).Find(id)!.RemediationPending;

        Assert.Equal(HttpStatusCode.OK, preview.StatusCode);
        Assert.Equal(JsonValueKind.Null, previewed.GetProperty("id").ValueKind);
        Assert.False(preview.Headers.Contains(RemediationEndpoints.PackIdHeader));
        Assert.Equal(0, afterPreview);
        Assert.Null(pendingAfterPreview);
        Assert.Equal(HttpStatusCode.Forbidden, readOnly.StatusCode);
        Assert.Equal(HttpStatusCode.UnsupportedMediaType, asForm.StatusCode);
        Assert.Equal(0, afterRefusals);
        Assert.Equal(HttpStatusCode.OK, recorded.StatusCode);
        var packId = pack.GetProperty("id").GetInt64();
        Assert.Equal(packId.ToString(System.Globalization.CultureInfo.InvariantCulture), recorded.Headers.GetValues(RemediationEndpoints.PackIdHeader).Single());
        Assert.Equal(1, await CountPacksAsync());
        Assert.Equal(packId, pending?.PackId);
    }

    async Task<long> CountPacksAsync()
    {
        await using var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None);
        return await connection.ExecuteScalarAsync<long>("SELECT COUNT(*) FROM remediation_packs;");
    }
}

using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using Microsoft.Extensions.DependencyInjection;
using IfiDashboard.Shared.Security;

namespace IfiDashboard.Client.Tests.Policy;

public sealed class PolicyPageTests : ComponentTest
{
    static readonly DateTimeOffset Now = InstanceSpec.Now;

    static readonly PolicyRule[] ThreeRules =
    [
        new() { Name = "pci", Desired = DesiredState.Forbidden, Tags = ["pci", "cardholder"] },
        new() { Name = "prod", Desired = DesiredState.Required, Environment = "Production", Owner = "dba-team" },
        new() { Name = "lab", Desired = DesiredState.NotApplicable },
    ];

    static WaiverView WaiverFor(long waiverId, long instanceId, string name, DateTimeOffset expires) => new(waiverId, name, new Waiver
    {
        InstanceId = instanceId, Reason = $"change window for {name}", Author = "alice", GrantedAt = Now.AddDays(-10), ExpiresAt = expires,
    }, expires > Now, expires <= Now);

    [Fact]
    public void A_waiver_awaiting_approval_offers_approval_to_anyone_but_its_author()
    {
        var pending = new WaiverView(21, "SQLHR01", new Waiver
        {
            InstanceId = 3, Reason = "vendor freeze", Author = "alice", GrantedAt = Now.AddHours(-1), ExpiresAt = Now.AddDays(5), NeedsApproval = true,
        }, IsActive: false, IsExpired: false);
        RenderedPage TableFor(string viewer) => Render<WaiversTable>(p => p
            .Add(c => c.Waivers, [pending]).Add(c => c.Errors, new FormErrors()).Add(c => c.Viewer, new Person($"{viewer}@test", viewer)));

        // Granted before identities were recorded: only the name tells, ignoring case as it did then.
        var asBob = TableFor("bob").Find("tr[data-waiver='21']");
        var asAlice = TableFor("ALICE").Find("tr[data-waiver='21']");

        Assert.Equal("pending", asBob.QuerySelector("[data-waiver-state]")!.GetAttribute("data-waiver-state"));
        Assert.Contains("awaiting approval", asBob.TextContent, StringComparison.Ordinal);
        Assert.Equal(("21", "approve-waiver"), (asBob.QuerySelector("button[data-approve]")!.GetAttribute("value"), asBob.QuerySelector("button[data-approve]")!.GetAttribute("form")));
        Assert.Equal("Reject…", asBob.QuerySelector("a[data-revoke]")!.TextContent.Trim());
        Assert.Null(asAlice.QuerySelector("button[data-approve]"));
        Assert.Equal("Withdraw…", asAlice.QuerySelector("a[data-revoke]")!.TextContent.Trim());
    }

    [Fact]
    public void A_waiver_awaiting_approval_is_its_authors_by_identity_whatever_the_names_say()
    {
        var pending = new WaiverView(22, "SQLHR01", new Waiver
        {
            InstanceId = 3, Reason = "vendor freeze", Author = "Alice Smith", AuthorIdentity = "alice-sub@https://idp.bank.test",
            GrantedAt = Now.AddHours(-1), ExpiresAt = Now.AddDays(5), NeedsApproval = true,
        }, IsActive: false, IsExpired: false);
        RenderedPage TableFor(Person viewer) => Render<WaiversTable>(p => p
            .Add(c => c.Waivers, [pending]).Add(c => c.Errors, new FormErrors()).Add(c => c.Viewer, viewer));

        var renamedAuthor = TableFor(new Person("alice-sub@https://idp.bank.test", "Alice Jones")).Find("tr[data-waiver='22']");
        var namesake = TableFor(new Person("other-sub@https://idp.bank.test", "Alice Smith")).Find("tr[data-waiver='22']");

        Assert.Null(renamedAuthor.QuerySelector("button[data-approve]"));
        Assert.Equal("Withdraw…", renamedAuthor.QuerySelector("a[data-revoke]")!.TextContent.Trim());
        Assert.NotNull(namesake.QuerySelector("button[data-approve]"));
        Assert.Equal("Reject…", namesake.QuerySelector("a[data-revoke]")!.TextContent.Trim());
    }

    RenderedPage RenderPolicy(IPolicyEditor policy, IFleetAssessments? assessments = null, params Shared.Inventory.InstanceRegistration[] instances)
    {
        Services.AddEditingBasics(assessments);
        Services.AddSingleton(policy);
        Services.AddSingleton<IInventoryEditor>(FakeInventoryEditor.Of(instances));
        return Render<PolicyPage>();
    }

    [Fact]
    public void An_empty_policy_says_every_instance_requires_ifi_and_offers_no_waiver_to_revoke()
    {
        var page = RenderPolicy(FakePolicyEditor.Of(FakePolicyEditor.View(0)));

        Assert.NotNull(page.Find("[data-rules-empty]"));
        Assert.NotNull(page.Find("[data-waivers-empty]"));
        Assert.Contains("register one", page.Find("[data-grant-empty]").TextContent, StringComparison.Ordinal);
        Assert.Equal("Save as version 1", page.Find("[data-action=save-rules]").TextContent.Trim());
        Assert.Empty(page.FindAll("[role=alert]"));
    }

    [Fact]
    public void Rules_are_listed_in_order_with_their_desired_state_and_criteria()
    {
        var page = RenderPolicy(FakePolicyEditor.Of(FakePolicyEditor.View(4, ThreeRules)));

        Assert.Equal("4", page.Find("[data-policy-version]").GetAttribute("data-policy-version"));
        Assert.Equal(["pci", "prod", "lab"], page.FindAll("tr[data-rule] input[name$='.Name']").Select(i => i.GetAttribute("value")!).ToArray());
        Assert.Equal(["Forbidden", "Required", "NotApplicable"],
            page.FindAll("tr[data-rule] select option[selected]").Select(o => o.GetAttribute("value")!).ToArray());
        Assert.Equal("pci; cardholder", page.Find("input[name='Draft.Rules[0].Tags']").GetAttribute("value"));
        Assert.Equal("Production", page.Find("input[name='Draft.Rules[1].Environment']").GetAttribute("value"));
        Assert.Equal("dba-team", page.Find("input[name='Draft.Rules[1].Owner']").GetAttribute("value"));
        Assert.NotNull(page.Find("tr[data-rule='0'] button[value='up:0'][disabled]"));
        Assert.NotNull(page.Find("tr[data-rule='2'] button[value='down:2'][disabled]"));
        Assert.Equal("Save as version 5", page.Find("[data-action=save-rules]").TextContent.Trim());
        Assert.Equal("test-token", page.Find("form[data-form=rules] input[name=__RequestVerificationToken]").GetAttribute("value"));
    }

    [Fact]
    public void Host_selectors_are_shown_in_their_fields_and_a_rule_with_only_a_selector_does_not_hide_the_rules_after_it()
    {
        PolicyRule[] rules =
        [
            new() { Name = "linux", Desired = DesiredState.Forbidden, Platforms = [PolicyPlatform.Linux], Versions = ["2019+"] },
            new() { Name = "ag", Desired = DesiredState.NotApplicable, Editions = [SqlEdition.Express, SqlEdition.Web],
                    Clusters = [ClusterMembership.AvailabilityGroupSecondary] },
            new() { Name = "rest", Desired = DesiredState.Required },
        ];
        var page = RenderPolicy(FakePolicyEditor.Of(FakePolicyEditor.View(2, rules)));

        Assert.Equal("Linux", page.Find("input[name='Draft.Rules[0].Platforms']").GetAttribute("value"));
        Assert.Equal("2019+", page.Find("input[name='Draft.Rules[0].Versions']").GetAttribute("value"));
        Assert.Equal("Express, Web", page.Find("input[name='Draft.Rules[1].Editions']").GetAttribute("value"));
        Assert.Equal("AvailabilityGroupSecondary", page.Find("input[name='Draft.Rules[1].Clusters']").GetAttribute("value"));
        Assert.Empty(page.FindAll("[data-unreachable]"));
        Assert.Contains("AzureSqlManagedInstance", page.Find("[data-selector-help]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Every_input_of_the_page_has_a_label()
    {
        var page = RenderPolicy(FakePolicyEditor.Of(FakePolicyEditor.View(4, ThreeRules, [WaiverFor(11, 1, "SQLFIN01", Now.AddDays(3))])),
            null, FakeInventoryEditor.Instance(1, "SQLFIN01"));

        var fields = page.FindAll("input:not([type=hidden]), select, textarea");
        Assert.NotEmpty(fields);
        Assert.All(fields, f => Assert.NotNull(page.FindAll($"label[for='{f.Id}']").SingleOrDefault()));
    }

    [Fact]
    public void Revoking_asks_first_and_only_the_confirmation_holds_the_revoke_form()
    {
        var view = FakePolicyEditor.View(2, waivers: [WaiverFor(11, 1, "SQLFIN01", Now.AddDays(3))]);
        var table = RenderPolicy(FakePolicyEditor.Of(view), null, FakeInventoryEditor.Instance(1, "SQLFIN01"));
        Assert.Empty(table.FindAll("form[data-form=revoke]"));
        Assert.Empty(table.FindAll("[data-confirm-revoke]"));

        NavigateTo(table.Find("a[data-revoke]").GetAttribute("href")!);
        var confirm = Render<PolicyPage>().Find("[data-confirm-revoke='11']");

        Assert.Equal("Revoke the waiver for SQLFIN01?", confirm.QuerySelector("h3")!.TextContent);
        Assert.Equal("11", confirm.QuerySelector("form[data-form=revoke] input[name='Revoke.WaiverId']")!.GetAttribute("value"));
        Assert.Equal("Revoke the waiver for SQLFIN01", confirm.QuerySelector("[data-action=confirm-revoke]")!.TextContent);
        Assert.Equal("policy", confirm.QuerySelector("a.btn")!.GetAttribute("href"));
    }

    [Theory]
    [InlineData("fin", new[] { "SQLFIN01 — Waived", "SQLFIN02 — Non-compliant" }, null)]
    [InlineData("NON-COMPLIANT", new[] { "SQLFIN02 — Non-compliant", "SQLHR01 — Non-compliant" }, null)]
    [InlineData(" hr01 ", new[] { "SQLHR01 — Non-compliant" }, "3")]
    [InlineData("nothing-like-it", new string[0], null)]
    public void The_find_box_narrows_the_waiver_forms_instances_and_a_single_match_is_chosen(string find, string[] listed, string? chosen)
    {
        var fleet = Fleets.Of([
            new InstanceSpec { Id = 1, Name = "SQLFIN01", Status = IfiDashboard.Compliance.Status.ComplianceStatus.Waived }.Build(),
            new InstanceSpec { Id = 2, Name = "SQLFIN02", Status = IfiDashboard.Compliance.Status.ComplianceStatus.NonCompliant }.Build(),
            new InstanceSpec { Id = 3, Name = "SQLHR01", Status = IfiDashboard.Compliance.Status.ComplianceStatus.NonCompliant }.Build(),
        ]);
        NavigateTo("policy?find=" + Uri.EscapeDataString(find));

        var page = RenderPolicy(FakePolicyEditor.Of(FakePolicyEditor.View(2)), FakeAssessments.Of(fleet),
            FakeInventoryEditor.Instance(1, "SQLFIN01"), FakeInventoryEditor.Instance(2, "SQLFIN02"), FakeInventoryEditor.Instance(3, "SQLHR01"));

        Assert.Equal(find, page.Find("form[data-form=find-instance] input[name=find]").GetAttribute("value"));
        Assert.Equal(listed, page.FindAll("select[name='Grant.InstanceId'] option:not([value=''])").Select(o => o.TextContent).ToArray());
        Assert.Equal(listed.Length.ToString(System.Globalization.CultureInfo.InvariantCulture), page.Find("[data-instances-found]").GetAttribute("data-instances-found"));
        Assert.Equal(chosen, page.FindAll("select[name='Grant.InstanceId'] option[selected]").SingleOrDefault()?.GetAttribute("value"));
    }

    [Fact]
    public void Waivers_show_author_expiry_whether_active_and_the_instance_status_now()
    {
        var fleet = Fleets.Of([
            new InstanceSpec { Id = 1, Name = "SQLFIN01", Status = IfiDashboard.Compliance.Status.ComplianceStatus.Waived }.Build(),
            new InstanceSpec { Id = 3, Name = "SQLHR01", Status = IfiDashboard.Compliance.Status.ComplianceStatus.NonCompliant }.Build(),
        ]);
        var view = FakePolicyEditor.View(2, waivers: [WaiverFor(12, 3, "SQLHR01", Now.AddDays(-1)), WaiverFor(11, 1, "SQLFIN01", Now.AddDays(3))]);

        var page = RenderPolicy(FakePolicyEditor.Of(view), FakeAssessments.Of(fleet),
            FakeInventoryEditor.Instance(1, "SQLFIN01"), FakeInventoryEditor.Instance(3, "SQLHR01"));

        var rows = page.FindAll("tr[data-waiver]");
        Assert.Equal(["SQLFIN01", "SQLHR01"], rows.Select(r => r.GetAttribute("data-instance")!).ToArray());
        Assert.Equal(["true", "false"], rows.Select(r => r.GetAttribute("data-active")!).ToArray());
        Assert.Equal(["Waived", "NonCompliant"], rows.Select(r => r.QuerySelector("[data-current-status]")!.GetAttribute("data-current-status")!).ToArray());
        Assert.Contains("2025-05-11 09:00 UTC", rows[0].TextContent, StringComparison.Ordinal);
        Assert.Contains("alice", rows[0].TextContent, StringComparison.Ordinal);
        Assert.Contains("expired", rows[1].TextContent, StringComparison.Ordinal);
        Assert.Equal("policy?revoke=11#confirm-revoke", rows[0].QuerySelector("a[data-revoke]")!.GetAttribute("href"));
        Assert.Null(rows[1].QuerySelector("[data-revoke]"));
        Assert.Equal(["SQLFIN01 — Waived", "SQLHR01 — Non-compliant"],
            page.FindAll("select[name='Grant.InstanceId'] option[value]:not([value=''])").Select(o => o.TextContent).ToArray());
        Assert.Equal("2025-05-15T09:00", page.Find("input[name='Grant.ExpiresAt']").GetAttribute("value"));
    }

    [Fact]
    public void A_failing_policy_editor_is_reported_as_an_alert()
    {
        var page = RenderPolicy(FakePolicyEditor.Failing("store is locked"));

        AssertReportedWithTraceId(page.Find("[role=alert]").TextContent, "store is locked");
        Assert.Empty(page.FindAll("form"));
    }

    [Fact]
    public void Without_the_assessment_the_waivers_are_still_listed_and_say_why_the_status_is_missing()
    {
        var view = FakePolicyEditor.View(2, waivers: [WaiverFor(11, 1, "SQLFIN01", Now.AddDays(3))]);

        var page = RenderPolicy(FakePolicyEditor.Of(view), FakeAssessments.Failing("assessment crashed"), FakeInventoryEditor.Instance(1, "SQLFIN01"));

        Assert.Contains("status unavailable: ", page.Find("tr[data-waiver='11']").TextContent, StringComparison.Ordinal);
        AssertReportedWithTraceId(page.Find("tr[data-waiver='11']").TextContent, "assessment crashed");
        Assert.Equal("SQLFIN01", page.Find("select[name='Grant.InstanceId'] option[value='1']").TextContent);
    }

    [Theory]
    [InlineData("policy?done=saved&version=7", "Rules saved as policy version 7.")]
    [InlineData("policy?done=granted&instance=1", "Waiver granted for SQLFIN01.")]
    [InlineData("policy?done=revoked&instance=1", "Waiver for SQLFIN01 revoked.")]
    // The name comes from the inventory by id: words in the address are not shown.
    [InlineData("policy?done=granted&instance=1&name=Call%20the%20helpdesk", "Waiver granted for SQLFIN01.")]
    [InlineData("policy?done=granted&instance=Call%20the%20helpdesk", "Waiver granted for the instance.")]
    [InlineData("policy?done=revoked&instance=99", "Waiver for the instance revoked.")]
    public void After_a_change_the_page_says_what_was_done(string address, string expected)
    {
        NavigateTo(address);

        var page = RenderPolicy(FakePolicyEditor.Of(FakePolicyEditor.View(7)), null, FakeInventoryEditor.Instance(1, "SQLFIN01"));

        Assert.Equal("ok", page.Find("[data-form-message]").GetAttribute("data-form-message"));
        Assert.StartsWith(expected, page.Find("[data-form-message]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Rule_errors_are_shown_next_to_the_field_they_are_about()
    {
        Services.AddEditingBasics();
        var draft = new RulesDraft { Rules = [new RuleRow { Name = "", Desired = "Required" }, new RuleRow { Name = "pci" }, new RuleRow { Name = "PCI", Desired = "Forbidden" }] };
        var errors = new FormErrors();
        Assert.Null(draft.Validate(errors));

        var page = Render<RulesEditor>(p => p.Add(c => c.Draft, draft).Add(c => c.Errors, errors).Add(c => c.Version, 1));

        var name = page.Find("input[name='Draft.Rules[0].Name']");
        Assert.Equal("true", name.GetAttribute("aria-invalid"));
        Assert.Contains("needs a name", page.Find($"#{name.GetAttribute("aria-describedby")}").TextContent, StringComparison.Ordinal);
        Assert.Contains("Choose the desired state", page.Find("[data-error-for='Draft.Rules[1].Desired']").TextContent, StringComparison.Ordinal);
        Assert.Equal("", page.Find("select[name='Draft.Rules[1].Desired'] option[selected]").GetAttribute("value"));
        Assert.Contains("already named 'PCI'", page.Find("[data-error-for='Draft.Rules[2].Name']").TextContent, StringComparison.Ordinal);
        Assert.Empty(page.FindAll("[data-error-for='Draft.Rules[0].Desired']"));
    }

    [Fact]
    public void A_rule_after_a_catch_all_is_marked_as_never_reached()
    {
        Services.AddEditingBasics();
        var draft = new RulesDraft { Rules = [new RuleRow { Name = "pci", Desired = "Forbidden", Tags = "pci" }, new RuleRow { Name = "all", Desired = "Required" }, new RuleRow { Name = "late", Desired = "Forbidden" }] };

        var page = Render<RulesEditor>(p => p.Add(c => c.Draft, draft).Add(c => c.Errors, new FormErrors()));

        var hint = Assert.Single(page.FindAll("[data-unreachable]"));
        Assert.Equal("2", hint.Closest("tr")!.GetAttribute("data-rule"));
        Assert.Contains("rule 2 matches every instance", hint.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Grant_errors_are_shown_next_to_their_fields_and_the_typed_reason_is_kept()
    {
        Services.AddEditingBasics();
        var grant = new WaiverGrant { InstanceId = "", Reason = "  ", ExpiresAt = "next tuesday" };
        var errors = new FormErrors();
        Assert.Null(grant.Validate(errors));

        var page = Render<GrantWaiverForm>(p => p.Add(c => c.Grant, grant).Add(c => c.Errors, errors)
            .Add(c => c.Instances, [new InstanceChoice(1, "SQLFIN01", null)]));

        Assert.Contains("Choose the instance", page.Find("[data-error-for='Grant.InstanceId']").TextContent, StringComparison.Ordinal);
        Assert.Contains("Say why", page.Find("[data-error-for='Grant.Reason']").TextContent, StringComparison.Ordinal);
        Assert.Contains("UTC date and time", page.Find("[data-error-for='Grant.ExpiresAt']").TextContent, StringComparison.Ordinal);
        Assert.Equal("next tuesday", page.Find("input[name='Grant.ExpiresAt']").GetAttribute("value"));
        Assert.Contains("grant-reason-error", page.Find("textarea[name='Grant.Reason']").GetAttribute("aria-describedby"), StringComparison.Ordinal);
    }
}

using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Client.Tests.Editing;
using IfiDashboard.Client.Tests.Rendering;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests.Policy;

/// <summary>
/// The impact preview beside the policy forms: the browser's script sends the form's fields (here: the call it makes),
/// and the preview lists the instances whose status would change, judged by the compliance engine.
/// </summary>
public sealed class ImpactPreviewTests : ComponentTest
{
    const string Module = "./_content/IfiDashboard.Client/impact-preview.js";

    readonly FakeAssessments _fleet = FakeAssessments.Of(Fleets.Of(Fleets.Mixed()));

    FakePolicyEditor UseEditor(bool fourEyes = false)
    {
        var view = FakePolicyEditor.View(3) with { WaiversNeedApproval = fourEyes };
        var editor = new FakePolicyEditor(() => Task.FromResult(view), _fleet);
        Services.AddSingleton<IPolicyEditor>(editor);
        Services.AddSingleton<IFleetAssessments>(_fleet);
        JSInterop.SetupModule(Module).Mode = JSRuntimeMode.Loose;
        return editor;
    }

    void SignIn(string role) => AddAuthorization().SetAuthorized("alice").SetRoles(role);

    RenderedPage PreviewOf(string form)
    {
        RenderInteractively();
        return Render<ImpactPreview>(p => p.Add(c => c.Form, form));
    }

    RenderedPage AdministratorsRulesPreview() => AdministratorsRulesPreview(out _);

    RenderedPage AdministratorsRulesPreview(out FakePolicyEditor editor)
    {
        editor = UseEditor();
        SignIn(DashboardRoles.Administrator);
        return PreviewOf(ImpactPreview.Rules);
    }

    static FormField[] Rule(string name, string desired, string environment = "", string tags = "") =>
    [
        new("Draft.Rules[0].Name", name), new("Draft.Rules[0].Desired", desired), new("Draft.Rules[0].Environment", environment),
        new("Draft.Rules[0].Tags", tags), new("Draft.Rules[0].Owner", ""),
    ];

    static Task SendAsync(RenderedPage preview, FormField[] fields) =>
        preview.InvokeAsync(() => ((ImpactPreview)preview.Instance).Preview(fields));

    [Fact]
    public async Task A_rule_being_typed_lists_the_instances_it_would_change_and_moves_the_compliance_figure()
    {
        var preview = AdministratorsRulesPreview();

        await SendAsync(preview, Rule("dev", nameof(DesiredState.NotApplicable), environment: "Development"));

        var changed = preview.FindAll("[data-impact-instance]");
        Assert.Equal(["SQLDEV01", "SQLDEV02"], changed.Select(c => c.GetAttribute("data-impact-instance")!).ToArray());
        Assert.All(changed, c => Assert.Equal(("Compliant", "NotApplicable"), (c.GetAttribute("data-before"), c.GetAttribute("data-after"))));
        // Five of nine compliant; two development instances leave the scope: three of seven.
        Assert.Equal(("55.6 %", "42.9 %"), (preview.Find("[data-impact-before]").TextContent, preview.Find("[data-impact-after]").TextContent));
        Assert.Contains("−12.7 points", preview.Find("[data-impact-figure]").TextContent, StringComparison.Ordinal);
        Assert.Equal(("5", "3"), (preview.Find("[data-impact-count=Compliant] td:nth-of-type(1)").TextContent, preview.Find("[data-impact-count=Compliant] td:nth-of-type(2)").TextContent));
        Assert.Equal("form[data-form=rules]", JSInterop.VerifyInvoke("follow").Arguments[0]);
    }

    [Fact]
    public async Task An_edit_after_the_first_replaces_the_preview()
    {
        var preview = AdministratorsRulesPreview();

        await SendAsync(preview, Rule("dev", nameof(DesiredState.NotApplicable), environment: "Development"));
        await SendAsync(preview, Rule("pci", nameof(DesiredState.Forbidden), tags: "pci"));

        Assert.Equal([("SQLFIN01", "NonCompliant", "Compliant"), ("SQLPCI01", "Compliant", "NonCompliant")],
            preview.FindAll("[data-impact-instance]").Select(c => (c.GetAttribute("data-impact-instance"), c.GetAttribute("data-before"), c.GetAttribute("data-after"))).ToArray());
    }

    [Fact]
    public async Task A_poll_landing_while_the_form_is_open_is_judged_again_and_closing_it_stops_following()
    {
        var preview = AdministratorsRulesPreview();
        await SendAsync(preview, Rule("dev", nameof(DesiredState.NotApplicable), environment: "Development"));

        // SQLDEV02 lost IFI: the draft now takes a non-compliant instance out of scope, not a compliant one.
        await _fleet.LandAsync(Fleets.Of(Fleets.Mixed().Select(i => i.Registration.Name == "SQLDEV02"
            ? i with { Facts = i.Facts with { Ifi = new IfiObservation(IfiState.Disabled, null) } } : i)));

        preview.WaitForAssertion(() => Assert.Equal("NonCompliant", preview.Find("[data-impact-instance=SQLDEV02]").GetAttribute("data-before")));
        Assert.Equal(1, _fleet.Followers);
        await DisposeComponentsAsync();
        Assert.Equal(0, _fleet.Followers);
    }

    [Fact]
    public async Task An_incomplete_rule_says_what_is_missing_and_asks_the_editor_nothing()
    {
        var preview = AdministratorsRulesPreview(out var editor);

        await SendAsync(preview, Rule("", nameof(DesiredState.Forbidden)));

        Assert.Contains("A rule needs a name", preview.Find("[data-impact-problem]").TextContent, StringComparison.Ordinal);
        Assert.Empty(editor.PreviewedFor);
        Assert.Empty(preview.FindAll("[data-impact-instance]"));
    }

    [Fact]
    public void Whoever_may_not_save_rules_gets_no_preview_and_nothing_follows_the_form()
    {
        var editor = UseEditor();
        SignIn(DashboardRoles.Operator);

        var preview = PreviewOf(ImpactPreview.Rules);

        Assert.Empty(preview.FindAll("[data-impact-preview]"));
        Assert.Empty(JSInterop.Invocations);
        Assert.Empty(editor.PreviewedFor);
    }

    [Fact]
    public async Task A_waiver_being_filled_in_shows_its_instance_turning_waived_for_the_signed_in_operator()
    {
        var editor = UseEditor();
        SignIn(DashboardRoles.Operator);
        var preview = PreviewOf(ImpactPreview.Grant);

        await SendAsync(preview, [new("Grant.InstanceId", "3"), new("Grant.ExpiresAt", "2025-05-15T09:00"), new("Grant.Reason", "")]);

        var changed = Assert.Single(preview.FindAll("[data-impact-instance]"));
        Assert.Equal(("SQLHR01", "NonCompliant", "Waived"), (changed.GetAttribute("data-impact-instance"), changed.GetAttribute("data-before"), changed.GetAttribute("data-after")));
        Assert.Equal("alice", Assert.Single(editor.PreviewedFor).Identity!.Name);
        Assert.Empty(preview.FindAll("[data-impact-note]"));
    }

    [Fact]
    public async Task With_four_eyes_on_a_waiver_changes_nothing_until_approved_and_says_so()
    {
        UseEditor(fourEyes: true);
        SignIn(DashboardRoles.Operator);
        var preview = PreviewOf(ImpactPreview.Grant);

        await SendAsync(preview, [new("Grant.InstanceId", "3"), new("Grant.ExpiresAt", "2025-05-15T09:00"), new("Grant.Reason", "freeze")]);

        Assert.NotNull(preview.Find("[data-impact-none]"));
        Assert.Contains("until someone else approves it", preview.Find("[data-impact-note]").TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void Rendered_without_a_circuit_it_says_the_preview_needs_script()
    {
        UseEditor();
        SignIn(DashboardRoles.Administrator);

        var preview = Render<ImpactPreview>(p => p.Add(c => c.Form, ImpactPreview.Rules));

        Assert.Contains("needs script", preview.Find("[data-impact-preview]").TextContent, StringComparison.Ordinal);
        Assert.Empty(JSInterop.Invocations);
    }
}

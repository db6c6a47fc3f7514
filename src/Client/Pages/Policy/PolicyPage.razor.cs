using System.Security.Claims;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Compliance.Assessment;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>
/// The rules (edited as a draft, saved as a new version) and the waivers (granted and revoked). Plain HTML forms
/// handled by static SSR, so they work without script; a stored change redirects back here with what was done. Beside
/// the rules and the grant form an interactive <see cref="ImpactPreview"/> follows the form as it is edited
/// (docs/decisions/0010).
/// </summary>
public partial class PolicyPage
{
    [Inject] IPolicyEditor Policy { get; set; } = null!;
    [Inject] IInventoryEditor Inventory { get; set; } = null!;
    [Inject] IFleetAssessments Assessments { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;
    [Inject] TimeProvider Time { get; set; } = null!;
    [CascadingParameter] HttpContext? HttpContext { get; set; }

    /// <summary>Who makes the change: the signed-in user, recorded as its author.</summary>
    ClaimsPrincipal User => HttpContext?.User ?? new ClaimsPrincipal();

    [SupplyParameterFromForm(FormName = "rules")] public RulesDraft? Draft { get; set; }
    [SupplyParameterFromForm(FormName = "grant")] public WaiverGrant? Grant { get; set; }
    [SupplyParameterFromForm(FormName = "revoke")] public WaiverDecision? Revoke { get; set; }
    [SupplyParameterFromForm(FormName = "approve")] public WaiverDecision? Approve { get; set; }

    [SupplyParameterFromQuery(Name = "done")] public string? Done { get; set; }
    [SupplyParameterFromQuery(Name = "version")] public string? SavedVersionText { get; set; }
    int? SavedVersion => QueryNumber.Count(SavedVersionText);
    /// <summary>The instance a change was about, by id (text, so that a mangled link shows no name rather than fails).</summary>
    [SupplyParameterFromQuery(Name = "instance")] public string? ChangedInstance { get; set; }
    /// <summary>The waiver to confirm revoking (<c>?revoke=id</c>, a safe GET): no click in the table revokes anything.</summary>
    [SupplyParameterFromQuery(Name = "revoke")] public string? RevokeText { get; set; }
    long? RevokeId => QueryNumber.Id(RevokeText);
    /// <summary>The waiver form's find box (<c>?find=fin</c>).</summary>
    [SupplyParameterFromQuery(Name = "find")] public string? FindInstance { get; set; }

    readonly FormErrors _rulesErrors = new();
    readonly FormErrors _grantErrors = new();
    readonly FormErrors _revokeErrors = new();
    PolicyView? _view;
    WaiverView? _confirmRevoke;
    FleetAssessment? _fleet;
    IReadOnlyList<InstanceChoice> _choices = [];
    string? _loadError;
    string? _statusError;
    string? _message;
    bool _failed;

    protected override async Task OnInitializedAsync()
    {
        Grant ??= WaiverGrant.Blank(Time.GetUtcNow());
        Revoke ??= new WaiverDecision();
        Approve ??= new WaiverDecision();
        try
        {
            _view = await Policy.GetAsync(PageClosed);
            // A posted draft is kept as typed; only a fresh page starts from the stored rules.
            Draft ??= RulesDraft.From(_view.Document);
            _confirmRevoke = _view.Waivers.FirstOrDefault(w => w.Id == RevokeId && !w.IsExpired);
            if (RevokeId is { } revokeId && _confirmRevoke is null)
                Fail($"No waiver #{revokeId} is in force or waiting for approval: it may already be revoked or expired.");
            var instances = await Inventory.ListAsync(PageClosed);
            _message = PolicyMessages.For(Done, SavedVersion, await ChangedInstanceNameAsync(instances));
            await LoadStatusesAsync();
            _choices = instances.OrderBy(i => i.Name, StringComparer.OrdinalIgnoreCase)
                .Select(i => new InstanceChoice(i.Id, i.Name, _fleet?.Find(i.Id)?.Compliance.Status))
                .ToList();
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading the policy", e);
        }
    }

    async Task LoadStatusesAsync()
    {
        // The statuses are a courtesy next to the waivers: without them the page still edits the policy.
        try
        {
            _fleet = await Assessments.GetAsync(PageClosed);
        }
        catch (Exception e)
        {
            _statusError = $"status unavailable: {Failures.Logged("Reading the statuses beside the waivers", e)}";
        }
    }

    async Task SaveRulesAsync()
    {
        if (Draft is null || _view is null) return;
        if (Draft.Command != RulesDraft.Save)
        {
            if (!Draft.TryEdit(_rulesErrors)) Fail("That change to the rules was not understood; the draft is unchanged.");
            return;
        }
        var rules = Draft.Validate(_rulesErrors);
        if (rules is null)
        {
            Fail("The rules were not saved: correct the fields marked below.");
            return;
        }
        int version;
        try
        {
            version = await Policy.SaveRulesAsync(rules, User, CancellationToken.None);
        }
        catch (Exception e)
        {
            Fail($"The rules could not be saved: {Failures.Logged("Saving the rules", e)}");
            return;
        }
        Navigation.NavigateTo(PolicyMessages.Saved(version));
    }

    async Task GrantAsync()
    {
        if (Grant is null || _view is null) return;
        if (Grant.Validate(_grantErrors) is not { } request)
        {
            Fail("The waiver was not granted: correct the fields marked below.");
            return;
        }
        try
        {
            await Policy.GrantWaiverAsync(request.InstanceId, request.Reason, request.ExpiresAt, User, CancellationToken.None);
        }
        catch (UnauthorizedAccessException refused)
        {
            _grantErrors.Add(WaiverGrant.Field(nameof(WaiverGrant.ExpiresAt)), refused.Message);
            if (HttpContext is { Response.HasStarted: false } http) http.Response.StatusCode = StatusCodes.Status403Forbidden;
            Fail("The waiver was not granted: your role does not allow it.");
            return;
        }
        catch (ArgumentException refused)
        {
            _grantErrors.Add(WaiverGrant.FieldOf(refused), WaiverGrant.MessageOf(refused));
            Fail("The waiver was not granted: correct the fields marked below.");
            return;
        }
        catch (Exception e)
        {
            Fail($"The waiver could not be granted: {Failures.Logged("Granting a waiver", e)}");
            return;
        }
        Navigation.NavigateTo(_view.WaiversNeedApproval ? PolicyMessages.AwaitingApproval(request.InstanceId) : PolicyMessages.Granted(request.InstanceId));
    }

    async Task RevokeAsync()
    {
        if (Revoke is null || _view is null) return;
        var waiver = long.TryParse(Revoke.WaiverId, out var id) ? _view.Waivers.FirstOrDefault(w => w.Id == id) : null;
        if (waiver is null)
        {
            _revokeErrors.Add("Revoke.WaiverId", "Open the waiver's Revoke from the table to revoke it.");
            Fail("No waiver was revoked.");
            return;
        }
        try
        {
            if (!await Policy.RevokeWaiverAsync(waiver.Id, User, CancellationToken.None))
            {
                Fail($"The waiver for {waiver.InstanceName} is no longer in force: it was already revoked.");
                return;
            }
        }
        catch (Exception e)
        {
            Fail($"The waiver could not be revoked: {Failures.Logged("Revoking a waiver", e)}");
            return;
        }
        Navigation.NavigateTo(PolicyMessages.Revoked(waiver.Waiver.InstanceId));
    }

    async Task ApproveAsync()
    {
        if (Approve is null || _view is null) return;
        var waiver = long.TryParse(Approve.WaiverId, out var id) ? _view.Waivers.FirstOrDefault(w => w.Id == id) : null;
        if (waiver is null)
        {
            _revokeErrors.Add("Approve.WaiverId", "Press the Approve button of the waiver to approve.");
            Fail("No waiver was approved.");
            return;
        }
        try
        {
            if (!await Policy.ApproveWaiverAsync(waiver.Id, User, CancellationToken.None))
            {
                Fail($"The waiver for {waiver.InstanceName} is not waiting for approval: it was approved, rejected or revoked meanwhile.");
                return;
            }
        }
        catch (UnauthorizedAccessException refused)
        {
            if (HttpContext is { Response.HasStarted: false } http) http.Response.StatusCode = StatusCodes.Status403Forbidden;
            Fail($"The waiver for {waiver.InstanceName} was not approved: {refused.Message}");
            return;
        }
        catch (Exception e)
        {
            Fail($"The waiver could not be approved: {Failures.Logged("Approving a waiver", e)}");
            return;
        }
        Navigation.NavigateTo(PolicyMessages.Approved(waiver.Waiver.InstanceId));
    }

    /// <summary>The name of the instance the redirect after a change names by id (a retired one too); null for none.</summary>
    async Task<string?> ChangedInstanceNameAsync(IReadOnlyList<Shared.Inventory.InstanceRegistration> active) =>
        QueryNumber.Id(ChangedInstance) is not { } id ? null
        : active.FirstOrDefault(i => i.Id == id)?.Name ?? (await Inventory.GetAsync(id, PageClosed))?.Name;

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }
}

using IfiDashboard.Client.Components;
using System.Security.Claims;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Shared.Security;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Authorization;
using Microsoft.JSInterop;

namespace IfiDashboard.Client.Pages.Policy;

/// <summary>The form's fields by name, as the browser sends them to the preview.</summary>
public sealed record FormField(string Name, string Value);

public partial class ImpactPreview
{
    public const string Rules = "rules";
    public const string Grant = "grant";
    const int MaxListed = 50;

    [Inject] PageFailures Failures { get; set; } = null!;

    [Inject] IPolicyEditor Policy { get; set; } = null!;
    [Inject] IFleetAssessments Assessments { get; set; } = null!;
    [Inject] IJSRuntime Js { get; set; } = null!;
    [CascadingParameter] Task<AuthenticationState>? Authentication { get; set; }

    /// <summary>The form followed: <see cref="Rules"/> or <see cref="Grant"/> (its <c>data-form</c>).</summary>
    [Parameter, EditorRequired] public string Form { get; set; } = Rules;

    ClaimsPrincipal _user = new();
    bool _mayEdit;
    bool _waitsForApproval;
    PolicyImpact? _impact;
    string? _problem;
    string? _note;
    int _latest;
    IReadOnlyDictionary<string, string>? _fields;
    bool _following;
    DotNetObjectReference<ImpactPreview>? _self;
    IJSObjectReference? _module;
    IJSObjectReference? _follower;

    protected override async Task OnInitializedAsync()
    {
        _user = Authentication is null ? new ClaimsPrincipal() : (await Authentication).User;
        _mayEdit = _user.HasAtLeast(Form == Rules ? DashboardRoles.Administrator : DashboardRoles.Operator);
        if (_mayEdit && Form == Grant && RendererInfo.IsInteractive)
            _waitsForApproval = (await Policy.GetAsync(CancellationToken.None)).WaiversNeedApproval;
    }

    protected override async Task OnAfterRenderAsync(bool firstRender)
    {
        if (!firstRender || !_mayEdit || !RendererInfo.IsInteractive) return;
        // A poll landing while the form is open changes the facts the preview judged: it is worked out again.
        Assessments.Assessed += OnAssessed;
        _following = true;
        _self = DotNetObjectReference.Create(this);
        _module = await Js.InvokeAsync<IJSObjectReference>("import", "./_content/IfiDashboard.Client/impact-preview.js");
        _follower = await _module.InvokeAsync<IJSObjectReference>("follow", $"form[data-form={Form}]", _self);
    }

    /// <summary>The form as it stands; called by the browser as it is edited.</summary>
    [JSInvokable]
    public Task Preview(FormField[] fields) =>
        ShowAsync(fields.GroupBy(f => f.Name, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Last().Value, StringComparer.Ordinal));

    // Raised on the assessment's thread: the preview is worked out on the circuit's dispatcher.
    void OnAssessed() => _ = InvokeAsync(() => _fields is { } fields ? ShowAsync(fields) : Task.CompletedTask);

    async Task ShowAsync(IReadOnlyDictionary<string, string> fields)
    {
        var call = ++_latest;
        _fields = fields;
        var (impact, problem, note) = await ComputeAsync(fields);
        // An older answer arriving after a newer one describes a form that no longer exists.
        if (call != _latest) return;
        (_impact, _problem, _note) = (impact, problem, note);
        StateHasChanged();
    }

    async Task<(PolicyImpact? Impact, string? Problem, string? Note)> ComputeAsync(IReadOnlyDictionary<string, string> fields)
    {
        try
        {
            if (Form == Rules)
            {
                var errors = new FormErrors();
                return RulesDraft.FromFields(fields).Validate(errors) is { } rules
                    ? (await Policy.PreviewRulesAsync(rules, _user, CancellationToken.None), null, null)
                    : (null, $"The effect shows once the rules are complete: {errors.All.Values.First()}", null);
            }
            var grant = WaiverGrant.FromFields(fields);
            var reason = grant.Reason;
            // The reason changes no status, so the preview does not wait for it.
            if (string.IsNullOrWhiteSpace(reason)) grant.Reason = "-";
            var grantErrors = new FormErrors();
            if (grant.Validate(grantErrors) is not { } request)
                return (null, $"The effect shows once the waiver is filled in: {grantErrors.All.Values.First()}", null);
            var impact = await Policy.PreviewWaiverAsync(request.InstanceId, reason, request.ExpiresAt, _user, CancellationToken.None);
            return (impact, null, _waitsForApproval
                ? "Four-eyes approval is on: the waiver changes nothing until someone else approves it."
                : null);
        }
        catch (UnauthorizedAccessException refused)
        {
            return (null, $"Saving would be refused: {refused.Message}", null);
        }
        catch (ArgumentException refused)
        {
            return (null, $"Saving would be refused: {WaiverGrant.MessageOf(refused)}", null);
        }
        catch (Exception e)
        {
            return (null, $"The effect could not be worked out: {Failures.Logged("Previewing a policy change", e)}", null);
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_following) Assessments.Assessed -= OnAssessed;
        try
        {
            if (_follower is not null) await _follower.InvokeVoidAsync("stop");
            if (_follower is not null) await _follower.DisposeAsync();
            if (_module is not null) await _module.DisposeAsync();
        }
        catch (JSDisconnectedException)
        {
            // The browser is gone, and its listeners with it.
        }
        _self?.Dispose();
        GC.SuppressFinalize(this);
    }
}

using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Authorization;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Client.Components;

/// <summary>
/// A page that follows the fleet while it is open: rendered interactively, it reads its data again each time a new
/// assessment lands (a poll stored, the policy changed) and re-renders in place over its circuit; no polling, no
/// reload, so scroll position and focus stay. Prerendered it reads once, like any page. When the circuit's session ends
/// (the server's revalidation turns a signed-in user anonymous), the page reloads: the browser then presents its
/// cookie afresh, and signs in again or is refused, instead of the circuit following the fleet for a user it no longer
/// knows.
/// </summary>
public abstract class LiveFleetPage : DashboardPage
{
    [Inject] protected IFleetAssessments Assessments { get; set; } = null!;
    [Inject] protected NavigationManager Navigation { get; set; } = null!;
    /// <summary>Cascaded anew whenever the circuit's authentication state changes.</summary>
    [CascadingParameter] Task<AuthenticationState>? Authentication { get; set; }

    bool _following;
    bool _signedIn;

    /// <summary>Who reads the page (anonymous when no authentication state is cascaded).</summary>
    protected async Task<System.Security.Claims.ClaimsPrincipal> ReaderAsync() =>
        Authentication is { } authentication ? (await authentication).User : new System.Security.Claims.ClaimsPrincipal();

    /// <summary>Reads what the page shows, reporting a failure on the page; after every parameter change and assessment.</summary>
    protected abstract Task LoadAsync();

    protected override async Task OnParametersSetAsync()
    {
        if (RendererInfo.IsInteractive && Authentication is { } authentication)
        {
            var signedIn = (await authentication).User.Identity?.IsAuthenticated == true;
            if (_signedIn && !signedIn)
            {
                Navigation.NavigateTo(Navigation.Uri, forceLoad: true);
                return;
            }
            _signedIn = signedIn;
        }
        if (RendererInfo.IsInteractive && !_following)
        {
            Assessments.Assessed += OnAssessed;
            _following = true;
        }
        await LoadAsync();
    }

    // Raised on the assessment's thread: the read and the render happen on the circuit's dispatcher.
    void OnAssessed() => _ = InvokeAsync(async () =>
    {
        await LoadAsync();
        StateHasChanged();
    });

    protected override void OnClosed()
    {
        if (_following) Assessments.Assessed -= OnAssessed;
    }
}

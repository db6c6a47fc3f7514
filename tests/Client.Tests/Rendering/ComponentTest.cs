global using RenderedPage = Bunit.IRenderedComponent<Microsoft.AspNetCore.Components.IComponent>;
using Bunit;
using Microsoft.AspNetCore.Components;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Client.Tests.Rendering;

/// <summary>
/// Renders components with bUnit at a given address, so query-string parameters are supplied. A component that waits
/// on a read shows its loading state at once; one that changes later is awaited with WaitForState/WaitForAssertion.
/// </summary>
public abstract class ComponentTest : BunitContext
{
    string? _relativeUri;
    // As the server renders a page for a request (static SSR), unless a test renders it interactively.
    RendererInfo _rendererInfo = new("Static", isInteractive: false);

    /// <summary>The address the next render happens at, relative to the app's base ("instances?status=...").</summary>
    protected void NavigateTo(string relativeUri) => _relativeUri = relativeUri;

    /// <summary>As rendered on a circuit (interactive server), where live pages follow new assessments.</summary>
    protected void RenderInteractively() => _rendererInfo = new RendererInfo("Server", isInteractive: true);

    protected new IRenderedComponent<TComponent> Render<TComponent>(Action<ComponentParameterCollectionBuilder<TComponent>>? parameters = null)
        where TComponent : IComponent
    {
        // Both resolve services, after which none can be added: so they happen here, after the test's setup.
        SetRendererInfo(_rendererInfo);
        if (_relativeUri is not null) Services.GetRequiredService<NavigationManager>().NavigateTo(_relativeUri);
        return base.Render(parameters ?? (_ => { }));
    }
}

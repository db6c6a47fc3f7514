global using RenderedPage = Bunit.IRenderedComponent<Microsoft.AspNetCore.Components.IComponent>;
using Bunit;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Layout;
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

    protected ComponentTest()
    {
        // Every page reports its failures through PageFailures; the store answers unless a test says otherwise.
        Services.AddSingleton<IStoreStatus>(Store);
        Services.AddSingleton<PageFailures>();
    }

    /// <summary>
    /// A failure the page reported: the sentence names the trace id it was logged under, never the exception's own text
    /// (it can name the store's host), and the read was reported to the store's status.
    /// </summary>
    protected void AssertReportedWithTraceId(string shown, string exceptionText)
    {
        Assert.Matches("trace id [0-9a-f]{32}", shown);
        Assert.DoesNotContain(exceptionText, shown, StringComparison.Ordinal);
        Assert.NotEmpty(Store.FailedReads);
    }

    /// <summary>The store's state as the pages' banner and failures see it.</summary>
    protected FakeStoreStatus Store { get; } = new();

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

/// <summary>The store as the layout's banner and <see cref="PageFailures"/> see it: answering, or out since a test says.</summary>
public sealed class FakeStoreStatus : IStoreStatus
{
    public StoreOutage? Outage { get; set; }

    /// <summary>What the pages reported as failed reads; a read failing with a store's error would start an outage.</summary>
    public List<string> FailedReads { get; } = [];

    public bool ReportFailedRead(string what, Exception error)
    {
        FailedReads.Add(what);
        return false;
    }
}

using System.Linq.Expressions;
using System.Reflection;
using AngleSharp.Dom;
using AngleSharp.Html.Parser;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Web;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Client.Tests.Rendering;

/// <summary>
/// Renders a component to HTML the way the server does for static SSR (Blazor's <see cref="HtmlRenderer"/>), at a
/// given address so query-string parameters are supplied, and parses the result for assertions.
/// </summary>
public abstract class ComponentTest
{
    const string BaseUri = "http://localhost/";
    string _uri = BaseUri;

    protected IServiceCollection Services { get; } = new ServiceCollection();

    /// <summary>The address the next render happens at, relative to the app's base ("instances?status=...").</summary>
    protected void NavigateTo(string relativeUri) => _uri = BaseUri + relativeUri;

    protected RenderedPage Render<TComponent>(Action<Parameters<TComponent>>? parameters = null) where TComponent : IComponent
    {
        var values = new Parameters<TComponent>();
        parameters?.Invoke(values);
        IServiceCollection services = new ServiceCollection();
        foreach (var descriptor in Services) services.Add(descriptor);
        services.AddSingleton<NavigationManager>(new TestNavigationManager(BaseUri, _uri));
        services.AddSupplyValueFromQueryProvider();
        // Off the test's synchronization context: the renderer has its own dispatcher.
        var html = Task.Run(async () =>
        {
            await using var provider = services.BuildServiceProvider();
            await using var renderer = new HtmlRenderer(provider, NullLoggerFactory.Instance);
            return await renderer.Dispatcher.InvokeAsync(async () =>
            {
                var root = renderer.BeginRenderingComponent<TComponent>(ParameterView.FromDictionary(values.Values));
                // A component still waiting (the loading state) is shown as it is after a short wait, as SSR without
                // streaming would never show it; that state only exists where the read never completes.
                await Task.WhenAny(root.QuiescenceTask, Task.Delay(TimeSpan.FromMilliseconds(250)));
                return root.ToHtmlString();
            });
        }).GetAwaiter().GetResult();
        return new RenderedPage(html);
    }

    sealed class TestNavigationManager : NavigationManager
    {
        public TestNavigationManager(string baseUri, string uri) => Initialize(baseUri, uri);

        protected override void NavigateToCore(string uri, NavigationOptions options) => Uri = ToAbsoluteUri(uri).ToString();
    }
}

/// <summary>Component parameters by property, so a renamed parameter fails to compile rather than to render.</summary>
public sealed class Parameters<TComponent>
{
    internal Dictionary<string, object?> Values { get; } = [];

    public Parameters<TComponent> Add<TValue>(Expression<Func<TComponent, TValue>> parameter, TValue value)
    {
        var member = (MemberExpression)parameter.Body;
        Values[((PropertyInfo)member.Member).Name] = value;
        return this;
    }
}

/// <summary>Rendered markup with CSS-selector lookups.</summary>
public sealed class RenderedPage(string markup)
{
    readonly IDocument _document = new HtmlParser().ParseDocument("<!DOCTYPE html><html><body>" + markup + "</body></html>");

    public string Markup { get; } = markup;

    public IElement Find(string selector) =>
        _document.QuerySelector(selector) ?? throw new Xunit.Sdk.XunitException($"No element matches '{selector}' in:\n{Markup}");

    public IReadOnlyList<IElement> FindAll(string selector) => _document.QuerySelectorAll(selector).ToList();
}

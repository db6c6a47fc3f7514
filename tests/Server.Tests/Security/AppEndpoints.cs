using System.Globalization;
using Microsoft.AspNetCore.Components.Endpoints;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.AspNetCore.Routing.Patterns;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>What the application maps, read from its own endpoint data source, so a new page or endpoint is covered.</summary>
internal static class AppEndpoints
{
    public static IReadOnlyList<RouteEndpoint> All(IServiceProvider services) =>
        services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>().ToList();

    public static IEnumerable<RouteEndpoint> Pages(IServiceProvider services) =>
        All(services).Where(e => e.Metadata.GetMetadata<ComponentTypeMetadata>() is not null);

    /// <summary>Every page the application maps, with route values filled in with <paramref name="id"/>.</summary>
    public static List<string> PagePaths(IServiceProvider services, long id) =>
        Pages(services).Select(e => PathOf(e.RoutePattern, id.ToString(CultureInfo.InvariantCulture))).Distinct().ToList();

    /// <summary>Parameters that name something other than an id, with a value that exists.</summary>
    static readonly Dictionary<string, string> NamedValues = new(StringComparer.OrdinalIgnoreCase)
    {
        ["Topic"] = IfiDashboard.Client.Pages.Method.MethodDocument.Status,
    };

    /// <summary>The pattern as a path, each id parameter given <paramref name="value"/>.</summary>
    public static string PathOf(RoutePattern pattern, string value) =>
        "/" + string.Join('/', pattern.PathSegments.Select(segment => string.Concat(segment.Parts.Select(part => part switch
        {
            RoutePatternLiteralPart literal => literal.Content,
            RoutePatternParameterPart parameter => NamedValues.GetValueOrDefault(parameter.Name, value),
            _ => "",
        }))));

    public static IReadOnlyList<string> MethodsOf(Endpoint endpoint) =>
        endpoint.Metadata.GetMetadata<HttpMethodMetadata>()?.HttpMethods ?? [];
}

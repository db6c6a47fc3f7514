using System.CodeDom.Compiler;
using System.Reflection;
using IfiDashboard.Server.Tests.Api;
using IfiDashboard.Server.Tests.Security;
using Microsoft.AspNetCore.Routing;

namespace IfiDashboard.Server.Tests.Hosting;

/// <summary>
/// Every Minimal API endpoint runs the request delegate the Request Delegate Generator wrote at compile time. One it
/// could not intercept (a handler passed as a <see cref="Delegate"/> variable, a parameter shape it does not support)
/// falls back to RequestDelegateFactory, which builds and JIT-compiles an expression tree for it in every process that
/// starts (docs/benchmarks.md, "Request Delegate Generator").
/// </summary>
public sealed class EndpointsAreGeneratedTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    const string Generator = "Microsoft.AspNetCore.Http.RequestDelegateGenerator";

    [Fact]
    public void Every_route_handler_runs_a_request_delegate_generated_at_compile_time()
    {
        _ = shared.Host.Server; // builds the host, whose endpoints are read below
        var handlers = AppEndpoints.All(shared.Host.Services)
            .Where(e => e.Metadata.GetMetadata<MethodInfo>() is not null)
            .ToList();

        var compiledAtRunTime = handlers
            .Where(e => !FromGenerator(e))
            .Select(e => $"{string.Join(',', AppEndpoints.MethodsOf(e))} {e.RoutePattern.RawText} ({e.Metadata.GetMetadata<MethodInfo>()!.DeclaringType?.FullName})")
            .ToList();

        Assert.True(handlers.Count >= 50, $"only {handlers.Count} route handlers found");
        Assert.True(compiledAtRunTime.Count == 0, "compiled at run time:\n" + string.Join('\n', compiledAtRunTime));
    }

    static bool FromGenerator(RouteEndpoint endpoint) =>
        endpoint.RequestDelegate?.Method.DeclaringType?.Namespace == "Microsoft.AspNetCore.Http.Generated"
        && endpoint.Metadata.OfType<GeneratedCodeAttribute>().Any(a => a.Tool?.StartsWith(Generator, StringComparison.Ordinal) == true);
}

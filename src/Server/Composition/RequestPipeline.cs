namespace IfiDashboard.Server.Composition;

/// <summary>
/// Where each middleware a module puts around the whole pipeline sits, outermost first. Startup filters run in the
/// order they were registered, so registered by modules each on its own they would follow the order of the
/// <c>AddIfi*</c> calls; here one list orders them, whichever module registers first, and the list goes first of all
/// startup filters (the framework's host filtering and the telemetry's included), so that their answers carry the
/// headers too.
/// </summary>
public enum PipelineStage
{
    /// <summary>A busy, full or damaged store becomes 503/507 (<c>StoreBusyResponses</c>).</summary>
    StoreFaults,
    /// <summary>The security headers, on every answer from here inwards (<c>SecurityHeaders</c>).</summary>
    SecurityHeaders,
    /// <summary>An oversized form is 413 with the headers (<c>OversizedRequests</c>).</summary>
    OversizedRequests,
    /// <summary>The client's address a known proxy forwarded (<c>ForwardedClient</c>).</summary>
    ForwardedClient,
}

public static class RequestPipeline
{
    /// <summary>Puts <paramref name="filter"/>'s middleware at <paramref name="stage"/> of the pipeline.</summary>
    public static IServiceCollection AddPipelineStage(this IServiceCollection services, PipelineStage stage,
        Func<IServiceProvider, IStartupFilter> filter)
    {
        services.AddSingleton(new StagedFilter(stage, filter));
        if (!services.Any(d => d.ServiceType == typeof(IStartupFilter) && d.ImplementationType == typeof(StagesInOrder)))
            services.Insert(0, ServiceDescriptor.Transient<IStartupFilter, StagesInOrder>());
        return services;
    }

    sealed class StagesInOrder(IServiceProvider services, IEnumerable<StagedFilter> stages) : IStartupFilter
    {
        public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) =>
            stages.OrderByDescending(s => s.Stage).Aggregate(next, (inner, stage) => stage.Create(services).Configure(inner));
    }
}

/// <summary>One module's middleware and its place (<see cref="RequestPipeline.AddPipelineStage"/>).</summary>
public sealed record StagedFilter(PipelineStage Stage, Func<IServiceProvider, IStartupFilter> Create)
{
    public override string ToString() => Stage.ToString();
}

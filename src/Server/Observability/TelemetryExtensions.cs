using System.Diagnostics;
using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace IfiDashboard.Server.Observability;

/// <summary>
/// The server's OpenTelemetry: the embedded collector's polls and meter, ingestion, ASP.NET Core, HttpClient and
/// Npgsql, exported over OTLP only when <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> is set (see <see cref="TelemetryExport"/>);
/// the metrics are also scraped by Prometheus at <see cref="MetricsPath"/>, with the API's <c>read</c> scope (a key, or
/// a signed-in Viewer), or without sign-in on the port <c>Prometheus:AnonymousScrapeUrl</c> names.
/// </summary>
public static class TelemetryExtensions
{
    /// <summary>Npgsql (9) traces and meters itself under this name; its OpenTelemetry package only adds the name.</summary>
    const string NpgsqlName = "Npgsql";

    public const string MetricsPath = "/metrics";

    public static WebApplicationBuilder AddIfiTelemetry(this WebApplicationBuilder builder)
    {
        builder.AddIfiTelemetryExport("ifidashboard-server",
            tracing => tracing
                .AddSource(IngestionTelemetry.Name, NpgsqlName)
                .AddProcessor(new WithoutConnectionStrings())
                .AddProcessor(new OutgoingUrlsWithoutPath())
                .AddAspNetCoreInstrumentation()
                .AddHttpClientInstrumentation(),
            metrics => metrics
                .AddMeter(IngestionTelemetry.Name, NpgsqlName)
                .AddView(WithoutPoolNames)
                .AddAspNetCoreInstrumentation()
                .AddHttpClientInstrumentation(),
            scrapeEndpoint: metrics => metrics.AddPrometheusExporter());
        return builder;
    }

    /// <summary>Prometheus's scrape target: the API's <c>read</c> scope, like the OpenAPI document.</summary>
    public static IEndpointRouteBuilder MapIfiMetrics(this IEndpointRouteBuilder app)
    {
        app.MapPrometheusScrapingEndpoint(MetricsPath).RequireScope(ApiScopes.Read);
        return app;
    }

    /// <summary>
    /// Npgsql tags its connection metrics with the pool's name, the connection string less its password (host,
    /// database, user): a Viewer reading <see cref="MetricsPath"/> never learns where the store is. Only the
    /// connection's state is kept.
    /// </summary>
    static MetricStreamConfiguration? WithoutPoolNames(System.Diagnostics.Metrics.Instrument instrument) =>
        instrument.Meter.Name == NpgsqlName
            ? new MetricStreamConfiguration { TagKeys = ["db.client.connection.state", "db.client.connections.state", "state"] }
            : null;

    /// <summary>
    /// Npgsql tags every command span with the connection string (without its password, but with host, database and
    /// user); nothing the server exports carries a connection string.
    /// </summary>
    sealed class WithoutConnectionStrings : BaseProcessor<Activity>
    {
        public override void OnEnd(Activity data) => data.SetTag("db.connection_string", null);
    }

    /// <summary>
    /// A chat webhook's URL is its credential: Slack puts the token in the path, Teams (workflows) in the query. .NET
    /// redacts only the query of <c>url.full</c>, so an outgoing call (a webhook, the identity provider's endpoints)
    /// exports its scheme, host and port only. Mail goes over SMTP, which makes no HTTP span.
    /// </summary>
    sealed class OutgoingUrlsWithoutPath : BaseProcessor<Activity>
    {
        public override void OnEnd(Activity data)
        {
            if (data.Kind != ActivityKind.Client || data.GetTagItem("url.full") is not string url) return;
            data.SetTag("url.full", Uri.TryCreate(url, UriKind.Absolute, out var uri) ? uri.GetLeftPart(UriPartial.Authority) : null);
            data.SetTag("url.path", null);
            data.SetTag("url.query", null);
        }
    }
}

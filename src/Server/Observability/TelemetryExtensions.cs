using System.Diagnostics;
using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Server.Ingestion;
using OpenTelemetry;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace IfiDashboard.Server.Observability;

/// <summary>
/// The server's OpenTelemetry: the embedded collector's polls and meter, ingestion, ASP.NET Core, HttpClient and
/// Npgsql, exported over OTLP only when <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> is set (see <see cref="TelemetryExport"/>).
/// </summary>
public static class TelemetryExtensions
{
    /// <summary>Npgsql (9) traces and meters itself under this name; its OpenTelemetry package only adds the name.</summary>
    const string NpgsqlName = "Npgsql";

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
                .AddAspNetCoreInstrumentation()
                .AddHttpClientInstrumentation());
        return builder;
    }

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

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
}

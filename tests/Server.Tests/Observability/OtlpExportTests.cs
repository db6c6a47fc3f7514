using IfiDashboard.Collector.Telemetry;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Store.Ingestion;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace IfiDashboard.Server.Tests.Observability;

public sealed class OtlpExportTests
{
    // Every probe a 2019 instance with IFI on answers (the errorlog probe only runs on builds too old for the IFI column).
    static readonly string[] ProbeSpans =
    [
        ProbeNames.Identity, ProbeNames.Services, ProbeNames.Clock, ProbeNames.Files, ProbeNames.Volumes, ProbeNames.Encryption,
        ProbeNames.DefaultTrace, ProbeNames.Backups,
    ];

    [Fact]
    public async Task A_poll_reaches_an_otlp_http_receiver_as_a_span_with_connect_probe_and_store_children()
    {
        await using var receiver = await OtlpReceiver.StartAsync();
        await using var host = ExportingTo(receiver, "otel-traced");
        await host.RegisterFleetAsync();
        var instanceId = host.IdOf("otel-traced");

        Assert.Equal(1, await host.PollAllAsync());
        var (spans, metrics) = await receiver.WaitForAsync((spans, metrics) =>
            PollOf(spans) is { } poll && ChildrenOf(spans, poll).Count >= ProbeSpans.Length + 2
            && metrics.Contains("ifidashboard.collector.polls"), TimeSpan.FromSeconds(30));

        var poll = PollOf(spans);
        Assert.NotNull(poll);
        Assert.Equal(CollectorTelemetry.Name, poll.Scope);
        Assert.Equal("ifidashboard-server", poll.ServiceName);
        Assert.Equal(instanceId.ToString(System.Globalization.CultureInfo.InvariantCulture), poll.Attributes[CollectorTelemetry.InstanceIdTag]);
        Assert.Equal(nameof(OutcomeClass.Ok), poll.Attributes[CollectorTelemetry.OutcomeTag]);
        // Ours by name; the store's own statement spans (Npgsql's "postgresql", one per statement) are left out.
        var children = ChildrenOf(spans, poll).Where(s => s.Scope is CollectorTelemetry.Name or IngestionTelemetry.Name)
            .ToDictionary(s => s.Name);
        Assert.Equal(nameof(OutcomeClass.Ok), children[CollectorTelemetry.ConnectSpan].Attributes[CollectorTelemetry.OutcomeTag]);
        foreach (var probe in ProbeSpans)
            Assert.Equal(nameof(OutcomeClass.Ok), children[probe].Attributes[CollectorTelemetry.OutcomeTag]);
        var stored = children[IngestionTelemetry.StoreSpan];
        Assert.Equal(IngestionTelemetry.Name, stored.Scope);
        Assert.Equal(poll.TraceId, stored.TraceId);
        Assert.Contains("ifidashboard.collector.polls", metrics);
        // Nothing exported names the login's password or a connection string.
        var values = spans.SelectMany(s => s.Attributes).ToList();
        Assert.DoesNotContain(values, a => a.Value.Contains(DashboardHost.Password, StringComparison.Ordinal));
        Assert.DoesNotContain(values, a => a.Key == "db.connection_string" || a.Value.Contains("Data Source=", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public async Task A_poll_that_cannot_log_in_is_a_failed_span_with_its_outcome_class()
    {
        await using var receiver = await OtlpReceiver.StartAsync();
        await using var host = ExportingTo(receiver, "otel-login-refused");
        host.Settings["Credentials:fleet:Password"] = "not-the-password";
        await host.RegisterFleetAsync();

        Assert.Equal(1, await host.PollAllAsync());
        var (spans, _) = await receiver.WaitForAsync((spans, _) =>
            PollOf(spans, "otel-login-refused") is { } poll && ChildrenOf(spans, poll).Any(s => s.Name == CollectorTelemetry.ConnectSpan),
            TimeSpan.FromSeconds(30));

        var poll = PollOf(spans, "otel-login-refused");
        Assert.NotNull(poll);
        Assert.Equal(nameof(OutcomeClass.LoginFailed), poll.Attributes[CollectorTelemetry.OutcomeTag]);
        Assert.Equal(ErrorStatus, poll.StatusCode);
        var connect = Assert.Single(ChildrenOf(spans, poll), s => s.Name == CollectorTelemetry.ConnectSpan);
        Assert.Equal(nameof(OutcomeClass.LoginFailed), connect.Attributes[CollectorTelemetry.OutcomeTag]);
        Assert.DoesNotContain(ChildrenOf(spans, poll), s => s.Name == ProbeNames.Identity);
        Assert.DoesNotContain(spans.SelectMany(s => s.Attributes), a => a.Value.Contains("not-the-password", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Without_an_otlp_endpoint_no_tracer_provider_is_registered_and_metrics_are_kept_for_the_scrape_only()
    {
        await using var host = new DashboardHost();
        host.CreateClient();

        Assert.Null(host.Services.GetService<TracerProvider>());
        // Prometheus's /metrics (PrometheusScrapeTests) reads them; nothing is sent anywhere.
        Assert.NotNull(host.Services.GetService<MeterProvider>());
    }

    /// <summary>A server with one simulated 2019 instance, exporting over OTLP/HTTP with short batch and export intervals.</summary>
    static DashboardHost ExportingTo(OtlpReceiver receiver, string instanceName)
    {
        var host = new DashboardHost(new ScenarioInstance { Name = instanceName, Profile = "2019", IfiEnabled = true });
        host.Settings["OTEL_EXPORTER_OTLP_ENDPOINT"] = receiver.Endpoint;
        host.Settings["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf";
        host.Settings["OTEL_BSP_SCHEDULE_DELAY"] = "100";
        host.Settings["OTEL_METRIC_EXPORT_INTERVAL"] = "200";
        return host;
    }

    /// <summary>OTLP's Status.code: STATUS_CODE_ERROR.</summary>
    const int ErrorStatus = 2;

    static ReceivedSpan? PollOf(IReadOnlyList<ReceivedSpan> spans, string instance = "otel-traced") =>
        spans.FirstOrDefault(s => s.Name == CollectorTelemetry.PollSpan && s.Attributes.GetValueOrDefault(CollectorTelemetry.InstanceNameTag) == instance);

    static List<ReceivedSpan> ChildrenOf(IReadOnlyList<ReceivedSpan> spans, ReceivedSpan parent) =>
        spans.Where(s => s.TraceId == parent.TraceId && s.ParentSpanId == parent.SpanId).ToList();
}

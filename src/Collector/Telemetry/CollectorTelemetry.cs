using System.Diagnostics;
using IfiDashboard.Collector.Probes;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Collector.Telemetry;

/// <summary>
/// The collector's traces: a span per poll with a child span for the connection and for each probe. Spans carry the
/// instance's id and name and outcome classes only: never a credential, a connection string or an error message.
/// Without a listener (no OTLP endpoint configured) <see cref="ActivitySource.StartActivity(string, ActivityKind)"/>
/// returns null and nothing is allocated.
/// </summary>
public static class CollectorTelemetry
{
    /// <summary>The name of both the collector's activity source and its meter.</summary>
    public const string Name = "IfiDashboard.Collector";

    public const string PollSpan = "poll";
    public const string ConnectSpan = ProbeNames.Connect;
    public const string InstanceIdTag = TelemetryTags.InstanceId;
    public const string InstanceNameTag = "ifi.instance.name";
    public const string CollectorTag = "ifi.collector.name";
    public const string ProbeTag = "ifi.probe";
    public const string OutcomeTag = TelemetryTags.Outcome;

    static readonly ActivitySource Source = new(Name);

    public static Activity? StartPoll(InstanceRegistration instance, string collectorName)
    {
        var span = Source.StartActivity(PollSpan);
        span?.SetTag(InstanceIdTag, instance.Id).SetTag(InstanceNameTag, instance.Name).SetTag(CollectorTag, collectorName);
        return span;
    }

    public static Activity? StartConnect() => Source.StartActivity(ConnectSpan, ActivityKind.Client);

    /// <summary>Tags a span with the outcome class and marks it failed when the instance could not be read.</summary>
    public static void SetOutcome(Activity? span, OutcomeClass outcome)
    {
        if (span is null) return;
        span.SetTag(OutcomeTag, outcome.ToString());
        if (IsFailure(outcome)) span.SetStatus(ActivityStatusCode.Error, outcome.ToString());
    }

    /// <summary>
    /// Runs one probe step in a child span named after it, tagged with the most severe outcome the step recorded
    /// (a step may record several, e.g. identity and host info).
    /// </summary>
    internal static async Task<T> TraceProbeAsync<T>(ProbeContext context, string probe, Func<Task<T>> run)
    {
        using var span = Source.StartActivity(probe);
        if (span is null) return await run();
        span.SetTag(ProbeTag, probe);
        var before = context.Outcomes.Count;
        var result = await run();
        var recorded = context.Outcomes.Skip(before).ToList();
        if (recorded.Count > 0) SetOutcome(span, recorded.MaxBy(o => o.Outcome.Severity())!.Outcome);
        return result;
    }

    /// <summary>Outcomes that mean the collector could not read what it asked for (others are facts about the instance).</summary>
    static bool IsFailure(OutcomeClass outcome) => outcome switch
    {
        OutcomeClass.Ok or OutcomeClass.NotApplicable or OutcomeClass.BuildTooOld or OutcomeClass.TraceDisabled => false,
        _ => true,
    };
}

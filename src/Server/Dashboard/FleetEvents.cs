using IfiDashboard.Shared.Security;
using System.Net.ServerSentEvents;
using System.Runtime.CompilerServices;
using System.Threading.Channels;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Security;

namespace IfiDashboard.Server.Dashboard;

/// <summary>
/// <c>/events/fleet</c>: one Server-Sent Event each time the fleet has been assessed anew after stored changes, for
/// live-refresh.js; pages re-read then, so they never refresh to the assessment before the change.
/// </summary>
public static class FleetEvents
{
    public const string EventType = "fleet-changed";
    /// <summary>A fleet's first round lands many polls a second; pages refresh at most this often.</summary>
    static readonly TimeSpan Throttle = TimeSpan.FromSeconds(1);

    public static IEndpointRouteBuilder MapFleetEvents(this IEndpointRouteBuilder app)
    {
        app.MapGet("/events/fleet", (FleetAssessments assessments, TimeProvider time, CancellationToken ct) =>
                TypedResults.ServerSentEvents(StreamAsync(assessments, time, ct)))
            .RequireAuthorization(DashboardRoles.Viewer)
            .ExcludeFromDescription();
        return app;
    }

    static async IAsyncEnumerable<SseItem<string>> StreamAsync(FleetAssessments changes, TimeProvider time,
        [EnumeratorCancellation] CancellationToken ct)
    {
        // Capacity one, dropping writes: any number of changes while a page refreshes become one event.
        var pending = Channel.CreateBounded<bool>(new BoundedChannelOptions(1) { FullMode = BoundedChannelFullMode.DropWrite });
        void OnChanged() => pending.Writer.TryWrite(true);
        changes.Assessed += OnChanged;
        try
        {
            // Sent at once, so the response headers go out and the browser sees an open stream, not a pending request.
            yield return new SseItem<string>("connected", "ready");
            while (await pending.Reader.WaitToReadAsync(ct))
            {
                pending.Reader.TryRead(out _);
                yield return new SseItem<string>("changed", EventType);
                await Task.Delay(Throttle, time, ct);
            }
        }
        finally
        {
            changes.Assessed -= OnChanged;
        }
    }
}

using System.Diagnostics;
using IfiDashboard.Client.Layout;
using IfiDashboard.Shared.Validation;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Client.Components;

/// <summary>
/// The one way a page reports what it could not do (a read in its load, a save, the error boundary around every page):
/// the exception goes to the server's log under the request's trace id, and the page shows a sentence with that id,
/// never the exception's text, which can name the store's host, a file or a query. A store outage is logged once by
/// the server (<see cref="IStoreStatus"/>), not once per page that meets it.
/// </summary>
public sealed class PageFailures(IStoreStatus store, ILogger<PageFailures> logger)
{
    /// <summary>Logs <paramref name="error"/> and returns what the page says after "… could not be read: ".</summary>
    /// <param name="what">What failed, for the log ("Reading the overview").</param>
    public string Logged(string what, Exception error)
    {
        if (error is IMessageForPeople) return error.Message;
        var traceId = TraceId();
        if (error is OperationCanceledException)
        {
            // The page closed or its request was given up: nobody is there to read more than this.
            logger.LogDebug("{What} was cancelled (trace id {TraceId})", what, traceId);
            return $"the page was closed (trace id {traceId}).";
        }
        if (store.ReportFailedRead(what, error))
        {
            logger.LogDebug("{What} failed: the store is unavailable (trace id {TraceId})", what, traceId);
            return $"the store is unavailable (trace id {traceId}).";
        }
        logger.LogError(error, "{What} failed (trace id {TraceId})", what, traceId);
        return $"something went wrong; the server's log has the details under trace id {traceId}.";
    }

    /// <summary>The request's trace id (the one OTLP exports); a circuit's event outside any trace gets one of its own.</summary>
    static string TraceId() => (Activity.Current?.TraceId ?? ActivityTraceId.CreateRandom()).ToHexString();
}

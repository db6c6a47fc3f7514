using System.Globalization;
using System.Net.Mime;
using Microsoft.AspNetCore.Diagnostics;
using IfiDashboard.Store;

namespace IfiDashboard.Server.Store;

/// <summary>
/// A busy store that reaches the edge of a request becomes 503 with Retry-After, never a 500 or a raw SQLite message:
/// problem details for the API (and the collectors' API, whose outbox then retries), a short page for a browser.
/// Installed by a startup filter, so it wraps every endpoint whatever order the features were mapped in; in the
/// Development environment the developer exception page, which WebApplication puts inside that, hands it the same
/// exceptions through its filter. A full or damaged store (<see cref="StoreFaults"/>) is answered here too: 507 (full)
/// or 503 (damaged) problem details, a short page naming neither the store's host nor its file. A store that cannot be
/// reached at all (<see cref="StoreBusy.IsUnreachable"/>) is an outage: <see cref="StoreAvailability"/> logs it once,
/// and each request it refuses only at Debug, so an outage under load is two lines in the log, not one per request.
/// </summary>
internal sealed class StoreBusyResponses(ILogger<StoreBusyResponses> logger, StoreFaults faults, StoreAvailability availability) : IStartupFilter, IDeveloperPageExceptionFilter
{
    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use(async (context, nextMiddleware) =>
        {
            try
            {
                await nextMiddleware(context);
            }
            catch (Exception e) when (!context.Response.HasStarted && StoreBusy.IsBusy(e))
            {
                await WriteAsync(context, e);
            }
            catch (Exception e) when (!context.Response.HasStarted && faults.Record(e))
            {
                await WriteFaultAsync(context, StoreFaults.Of(e)!.Value);
            }
        });
        next(app);
    };

    public async Task HandleExceptionAsync(ErrorContext errorContext, Func<ErrorContext, Task> next)
    {
        if (!errorContext.HttpContext.Response.HasStarted && faults.Record(errorContext.Exception))
        {
            await WriteFaultAsync(errorContext.HttpContext, StoreFaults.Of(errorContext.Exception)!.Value);
            return;
        }
        if (errorContext.HttpContext.Response.HasStarted || !StoreBusy.IsBusy(errorContext.Exception))
        {
            await next(errorContext);
            return;
        }
        await WriteAsync(errorContext.HttpContext, errorContext.Exception);
    }

    /// <summary>Retry-After for a fault: long enough not to hammer a store an administrator is mending.</summary>
    static readonly TimeSpan FaultRetryAfter = TimeSpan.FromSeconds(30);

    static async Task WriteFaultAsync(HttpContext context, StoreFault fault)
    {
        var response = context.Response;
        response.StatusCode = fault == StoreFault.Full ? StatusCodes.Status507InsufficientStorage : StatusCodes.Status503ServiceUnavailable;
        response.Headers.RetryAfter = FaultRetryAfter.TotalSeconds.ToString(CultureInfo.InvariantCulture);
        response.Headers.CacheControl = "no-store";
        var (title, detail) = fault == StoreFault.Full
            ? ("The store is full", "The dashboard's store has no space left, so nothing was changed. An administrator frees space for it; then send the same request again.")
            : ("The store is unavailable", "The dashboard's store is damaged or its disk fails, so nothing was changed. An administrator restores it; then send the same request again.");
        if (context.Request.Path.StartsWithSegments("/api"))
        {
            await TypedResults.Problem(detail, statusCode: response.StatusCode, title: title).ExecuteAsync(context);
            return;
        }
        response.ContentType = MediaTypeNames.Text.Html + "; charset=utf-8";
        await response.WriteAsync($"""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Store unavailable · IfiDashboard</title></head>
            <body><h1>{title}</h1><p>{detail}</p></body></html>
            """);
    }

    async Task WriteAsync(HttpContext context, Exception busy)
    {
        var unreachable = StoreBusy.IsUnreachable(busy);
        if (unreachable)
        {
            availability.Unavailable($"{context.Request.Method} {context.Request.Path}", busy);
            logger.LogDebug("{Method} {Path} answered 503: the store cannot be reached ({Error})",
                context.Request.Method, context.Request.Path, busy.GetBaseException().GetType().Name);
        }
        else
        {
            logger.LogWarning("{Method} {Path} answered 503: the store is busy ({Error})",
                context.Request.Method, context.Request.Path, busy.GetBaseException().GetType().Name);
        }
        var response = context.Response;
        response.StatusCode = StatusCodes.Status503ServiceUnavailable;
        response.Headers.RetryAfter = StoreBusy.RetryAfter.TotalSeconds.ToString(CultureInfo.InvariantCulture);
        response.Headers.CacheControl = "no-store";
        var (title, detail, page) = unreachable
            ? ("The store is unavailable",
               "The dashboard cannot reach its store just now, so nothing was changed. Send the same request again after the Retry-After delay.",
               "The dashboard cannot reach its store just now, so nothing was changed.")
            : ("The store is busy",
               "Another writer holds the store's write lock, so nothing was changed. Send the same request again after the Retry-After delay.",
               "Another writer holds the store for a moment, so nothing was changed.");
        if (context.Request.Path.StartsWithSegments("/api"))
        {
            await TypedResults.Problem(detail, statusCode: StatusCodes.Status503ServiceUnavailable, title: title)
                .ExecuteAsync(context);
            return;
        }
        response.ContentType = MediaTypeNames.Text.Html + "; charset=utf-8";
        await response.WriteAsync($"""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>{title} · IfiDashboard</title></head>
            <body><h1>{title}</h1>
            <p>{page} Go back and try again in {StoreBusy.RetryAfter.TotalSeconds:0} seconds.</p></body></html>
            """);
    }
}

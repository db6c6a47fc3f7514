using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Security;

/// <summary>
/// A form over ASP.NET Core's limits (a key over 2 KB, more than 1,024 fields, a value over 4 MiB) or a body over
/// Kestrel's is the client's mistake: 413 (400 for a body that cannot be read) with the security headers, a page or
/// problem details, and one line in the log. The form is read here, before anything else does: read later (by the
/// antiforgery check, a page's form binding) its exception escaped the pipeline as a 500 with a stack trace, logged
/// before anyone was known. The form is cached on the request, so it is read once either way.
/// </summary>
internal sealed class OversizedRequests(ILogger<OversizedRequests> logger) : IStartupFilter
{
    public Action<IApplicationBuilder> Configure(Action<IApplicationBuilder> next) => app =>
    {
        app.Use(async (context, nextMiddleware) =>
        {
            if (context.Request.HasFormContentType)
            {
                try
                {
                    await context.Request.ReadFormAsync(context.RequestAborted);
                }
                catch (Exception e) when (StatusFor(e) is { } status)
                {
                    await WriteAsync(context, e, status);
                    return;
                }
            }
            await nextMiddleware(context);
        });
        next(app);
    };

    static int? StatusFor(Exception e) => e switch
    {
        InvalidDataException => StatusCodes.Status413PayloadTooLarge,
        BadHttpRequestException bad => bad.StatusCode,
        _ => null,
    };

    async Task WriteAsync(HttpContext context, Exception refused, int status)
    {
        logger.LogInformation("{Method} {Path} answered {Status}: {Reason}", context.Request.Method, context.Request.Path, status, refused.Message);
        const string title = "Request refused";
        var detail = status == StatusCodes.Status413PayloadTooLarge
            ? "The request is larger than the dashboard accepts (a form field name over 2 KB, more than 1,024 fields, a value over 4 MiB). Nothing was changed."
            : "The request could not be read. Nothing was changed.";
        if (context.Request.Path.StartsWithSegments("/api"))
            await ApiProblems.WriteAsync(context, status, title, detail);
        else
            await DashboardAuthenticationHandler.WritePageAsync(context, status, title, detail);
    }
}

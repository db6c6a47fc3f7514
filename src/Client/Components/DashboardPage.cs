using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Components;

/// <summary>
/// A page of the dashboard: it reports what it could not do through <see cref="Failures"/>, and reads with
/// <see cref="PageClosed"/>, so a read nobody waits for any more stops: cancelled when the browser gives up the request
/// (a static page) or when the page is disposed (the person navigated away, the circuit ended). Writes are not
/// cancelled: a change someone asked for is made or refused, never half-abandoned with the page.
/// </summary>
public abstract class DashboardPage : ComponentBase, IDisposable
{
    readonly CancellationTokenSource _closed = new();
    CancellationTokenRegistration _requestAborted;

    [Inject] protected PageFailures Failures { get; set; } = null!;
    /// <summary>The request of a static (or prerendered) page; none over a circuit.</summary>
    [CascadingParameter] protected HttpContext? RequestContext { get; set; }

    // Taken once: a read queued before the page closed may still ask for it after the source is disposed.
    protected CancellationToken PageClosed { get; }

    protected DashboardPage() => PageClosed = _closed.Token;

    protected override void OnInitialized()
    {
        if (RequestContext is { } request)
            _requestAborted = request.RequestAborted.Register(static closed => ((CancellationTokenSource)closed!).Cancel(), _closed);
    }

    /// <summary>What a page lets go of when it closes, besides its reads.</summary>
    protected virtual void OnClosed()
    {
    }

    public void Dispose()
    {
        _requestAborted.Dispose();
        _closed.Cancel();
        _closed.Dispose();
        OnClosed();
        GC.SuppressFinalize(this);
    }
}

using System.Data.Common;
using IfiDashboard.Client.Layout;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace IfiDashboard.Server.Store;

/// <summary>
/// Whether the store answers, for the log and the pages' banner. An outage is logged once when it starts (what failed,
/// in one line, without a stack trace) and once when it ends, however many readiness probes, page loads and
/// assessments meet it in between. <see cref="StoreHealth"/> decides both edges: it starts an outage when a check fails
/// and is the only one to end it, so a store that reads but cannot be written stays down. A failed read of the fleet
/// (<see cref="ReportFailedRead"/>: the background assessment, a page's load) starts one too, as the pages meet it before the next check. Registered as a health check
/// publisher so that the check also runs every 30 s when nothing probes <c>/readyz</c>.
/// </summary>
public sealed class StoreAvailability(TimeProvider time, ILogger<StoreAvailability> logger) : IStoreStatus, IHealthCheckPublisher
{
    readonly Lock _lock = new();
    StoreOutage? _outage;
    DateTimeOffset? _dataAsOf;

    public StoreOutage? Outage => Volatile.Read(ref _outage);

    /// <summary>The store answered every step of <see cref="StoreHealth"/>: ends an outage.</summary>
    public void Answered()
    {
        StoreOutage? ended;
        lock (_lock)
        {
            ended = _outage;
            Volatile.Write(ref _outage, null);
        }
        if (ended is not null)
            logger.LogInformation("The store is available again after {Duration:0} s (unavailable since {Since:O})",
                (time.GetUtcNow() - ended.Since).TotalSeconds, ended.Since);
    }

    /// <summary>A step of <see cref="StoreHealth"/> failed: starts an outage unless one is under way.</summary>
    public void Unavailable(string step, Exception error)
    {
        StoreOutage? started = null;
        lock (_lock)
        {
            if (_outage is null)
            {
                started = new StoreOutage(time.GetUtcNow(), _dataAsOf);
                Volatile.Write(ref _outage, started);
            }
        }
        if (started is not null)
            logger.LogError("The store is unavailable: {Step} {Error}: {Reason}. Pages show the data read at {DataAsOf:O}; /readyz answers 503 until it is back",
                step, error.GetBaseException().GetType().Name, OneLine(error.GetBaseException().Message), started.DataAsOf);
    }

    public bool ReportFailedRead(string what, Exception error)
    {
        if (!IsStoreFault(error)) return false;
        Unavailable(what, error);
        return true;
    }

    /// <summary>The fleet the pages show was read from the store at <paramref name="at"/>.</summary>
    public void DataRead(DateTimeOffset at)
    {
        lock (_lock) _dataAsOf = at;
    }

    static bool IsStoreFault(Exception error)
    {
        for (var e = error; e is not null; e = e.InnerException)
            if (e is DbException or System.Net.Sockets.SocketException or TimeoutException) return true;
        return false;
    }

    static string OneLine(string text) => string.Join(' ', text.Split(['\r', '\n'], StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));

    /// <summary>The checks ran on the publisher's schedule; <see cref="StoreHealth"/> has already said what they found.</summary>
    public Task PublishAsync(HealthReport report, CancellationToken cancellationToken) => Task.CompletedTask;
}

using System.Net.Sockets;
using Microsoft.Data.SqlClient;
using Polly;
using Polly.Retry;

namespace IfiDashboard.Collector.Connections;

/// <summary>
/// Retries opening a connection only when the failure is transient: a connection reset or broken mid-handshake.
/// Never a login failure (each attempt would count toward the account's lock-out), a TLS or permission problem, nor a
/// refused or timed-out connect (that already waited its full timeout, and the next poll comes soon enough).
/// </summary>
public static class ConnectRetry
{
    // Not 20 ("does not support encryption"): that is the server's configuration, the same on every attempt.
    static readonly HashSet<int> TransientNumbers = [10053, 10054, 64, 121, 233];

    public static ResiliencePipeline Create(int maxRetries) => maxRetries <= 0
        ? ResiliencePipeline.Empty
        : new ResiliencePipelineBuilder().AddRetry(new RetryStrategyOptions
        {
            ShouldHandle = new PredicateBuilder().Handle<SqlException>(IsTransient).Handle<IOException>(),
            MaxRetryAttempts = maxRetries,
            Delay = TimeSpan.FromMilliseconds(250),
            BackoffType = DelayBackoffType.Exponential,
            UseJitter = true,
        }).Build();

    /// <summary>
    /// A reset or aborted connection, whether SqlClient reports it by number (10054, 10053...) or, as its managed
    /// network layer on Linux does, as error 0 / 35 wrapping the socket error.
    /// </summary>
    public static bool IsTransient(SqlException e) =>
        e.Errors.Cast<SqlError>().All(x => TransientNumbers.Contains(x.Number)) || Chain(e).Any(IsReset);

    static bool IsReset(Exception e) =>
        e is SocketException { SocketErrorCode: SocketError.ConnectionReset or SocketError.ConnectionAborted or SocketError.Shutdown };

    static IEnumerable<Exception> Chain(Exception e)
    {
        for (Exception? x = e.InnerException; x is not null; x = x.InnerException) yield return x;
    }
}

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
    static readonly HashSet<int> TransientNumbers = [10053, 10054, 64, 121, 233, 20];

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

    public static bool IsTransient(SqlException e) =>
        e.Errors.Cast<SqlError>().All(x => TransientNumbers.Contains(x.Number)) &&
        e.InnerException is null or SocketException { SocketErrorCode: SocketError.ConnectionReset or SocketError.ConnectionAborted } or IOException;
}

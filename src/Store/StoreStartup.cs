using System.Data.Common;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>The first connection at start-up, which may have to wait for a database server that is still starting.</summary>
public static class StoreStartup
{
    static readonly TimeSpan FirstPause = TimeSpan.FromMilliseconds(250);
    static readonly TimeSpan LongestPause = TimeSpan.FromSeconds(5);

    /// <summary>
    /// Opens a connection, retrying with backoff for up to <paramref name="wait"/> while the failure is one a server
    /// that is starting gives (refused, reset, timed out, "the database system is starting up"). Any other failure
    /// (wrong password, unknown database) is thrown at once: waiting would not mend it.
    /// </summary>
    public static async Task<DbConnection> OpenWhenReachableAsync(IDbConnectionFactory connections, TimeSpan wait,
        ILogger? logger, CancellationToken ct)
    {
        var deadline = DateTime.UtcNow + wait;
        var pause = FirstPause;
        while (true)
        {
            try
            {
                return await connections.OpenAsync(ct);
            }
            catch (NpgsqlException e) when (IsStarting(e) && DateTime.UtcNow + pause < deadline)
            {
                // The message names host and port, never the connection string or its password.
                logger?.LogWarning("The store is not reachable yet ({Reason}); retrying in {Pause} s",
                    e.Message, pause.TotalSeconds);
                await Task.Delay(pause, ct);
                pause = TimeSpan.FromTicks(Math.Min(pause.Ticks * 2, LongestPause.Ticks));
            }
        }
    }

    static bool IsStarting(NpgsqlException e) =>
        e.IsTransient || e is PostgresException { SqlState: PostgresErrorCodes.CannotConnectNow };
}

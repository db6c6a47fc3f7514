using System.Data.Common;

namespace IfiDashboard.Store;

/// <summary>Opens a ready-to-use connection to the store; the caller disposes it.</summary>
public interface IDbConnectionFactory
{
    /// <summary>Which SQL the store speaks, for the few statements that differ between providers.</summary>
    SqlDialect Dialect { get; }

    ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken);
}

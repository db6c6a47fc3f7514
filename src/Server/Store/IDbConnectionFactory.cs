using System.Data.Common;

namespace IfiDashboard.Server.Store;

/// <summary>Opens a ready-to-use connection to the store; the caller disposes it.</summary>
public interface IDbConnectionFactory
{
    ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken);
}

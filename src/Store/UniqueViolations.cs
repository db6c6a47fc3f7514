using System.Data.Common;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>Tells a unique-constraint violation apart from other store errors, whichever provider raised it.</summary>
public static class UniqueViolations
{
    const int SqliteConstraintUnique = 2067;
    const int SqliteConstraintPrimaryKey = 1555;

    public static bool IsUniqueViolation(this DbException exception) => exception switch
    {
        SqliteException sqlite => sqlite.SqliteExtendedErrorCode is SqliteConstraintUnique or SqliteConstraintPrimaryKey,
        PostgresException postgres => postgres.SqlState == PostgresErrorCodes.UniqueViolation,
        _ => false,
    };
}

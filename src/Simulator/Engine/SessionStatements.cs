using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine;

/// <summary>
/// USE and the transaction statements: what a session can observe of them is the current database (DB_NAME()) and
/// @@TRANCOUNT. The simulator changes no data, so COMMIT and ROLLBACK have nothing else to do.
/// </summary>
internal static class SessionStatements
{
    /// <summary>USE (Transact-SQL): Msg 911 for a database the instance lacks; Azure SQL Database refuses any other database (40508).</summary>
    public static BatchItem Use(UseStatement use, SessionContext session)
    {
        if (DatabaseLayout.Find(session.Instance, use.Database) is not { } database)
        {
            throw new QueryException(new SqlMessage(911, 1, 16,
                $"Database '{use.Database}' does not exist. Make sure that the name is entered correctly.", use.Line), unknownToSimulator: false);
        }

        if (session.Profile.IsAzureSqlDatabase && !database.Name.Equals(session.Database, StringComparison.OrdinalIgnoreCase))
        {
            throw new QueryException(new SqlMessage(40508, 1, 16,
                "USE statement is not supported to switch between databases. Use a new connection to connect to a different database.",
                use.Line), unknownToSimulator: false);
        }

        var previous = session.Database;
        session.Database = database.Name;
        return new DatabaseChanged(database.Name, previous);
    }

    /// <summary>
    /// BEGIN TRANSACTION adds one to @@TRANCOUNT; COMMIT takes one off (the outermost commits); ROLLBACK sets it to 0.
    /// Without a transaction, COMMIT is Msg 3902 and ROLLBACK Msg 3903 (BEGIN/COMMIT/ROLLBACK TRANSACTION (Transact-SQL)).
    /// Only the outermost begin and the end are told to the client.
    /// </summary>
    public static BatchItem Transaction(TransactionStatement statement, SessionContext session)
    {
        switch (statement.Action)
        {
            case TransactionAction.Begin:
                if (session.TransactionCount++ > 0) return new StatementDone();
                session.TransactionDescriptor = ++session.TransactionsBegun;
                return new TransactionChanged(TransactionEvent.Began, session.TransactionDescriptor);
            case TransactionAction.Commit when session.TransactionCount == 0:
                throw new QueryException(new SqlMessage(3902, 1, 16,
                    "The COMMIT TRANSACTION request has no corresponding BEGIN TRANSACTION.", statement.Line), abortsBatch: false, unknownToSimulator: false);
            case TransactionAction.Commit:
                if (--session.TransactionCount > 0) return new StatementDone();
                return End(session, TransactionEvent.Committed);
            default:
                if (session.TransactionCount == 0)
                {
                    throw new QueryException(new SqlMessage(3903, 1, 16,
                        "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.", statement.Line), abortsBatch: false, unknownToSimulator: false);
                }

                session.TransactionCount = 0;
                return End(session, TransactionEvent.RolledBack);
        }
    }

    private static TransactionChanged End(SessionContext session, TransactionEvent end)
    {
        var descriptor = session.TransactionDescriptor;
        session.TransactionDescriptor = 0;
        return new TransactionChanged(end, descriptor);
    }
}

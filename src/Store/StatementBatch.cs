using System.Data.Common;

namespace IfiDashboard.Store;

/// <summary>
/// Statements of one transaction sent together. On PostgreSQL they go as one <see cref="DbBatch"/>, one round trip and
/// one sync for all of them (each still prepared once per connection, Max Auto Prepare): a snapshot's store transaction
/// was about fifteen round trips, and their protocol and scheduling cost more of PostgreSQL's time than executing the
/// statements did (docs/benchmarks.md, "Four collectors", fifth pass). SQLite has no batch and no round trip (it runs in
/// the process): there they run one after the other. Either way in order, and each statement has its own parameters.
/// </summary>
internal sealed class StatementBatch
{
    readonly List<Statement> _statements = [];

    sealed record Statement(string Sql, IReadOnlyList<(string Name, object? Value)> Parameters,
        Func<DbDataReader, CancellationToken, Task>? Read);

    public int Count => _statements.Count;

    /// <summary>A statement whose result is not read (an INSERT, UPDATE or DELETE without RETURNING).</summary>
    public void Add(string sql, params IReadOnlyList<(string Name, object? Value)> parameters) =>
        _statements.Add(new Statement(sql, parameters, null));

    /// <summary>A statement with one result set, which <paramref name="read"/> reads when the batch runs.</summary>
    public void Add(string sql, Func<DbDataReader, CancellationToken, Task> read, params IReadOnlyList<(string Name, object? Value)> parameters) =>
        _statements.Add(new Statement(sql, parameters, read));

    /// <summary>
    /// Runs the statements in order in <paramref name="tx"/> and empties the batch. Either every statement reads its
    /// result or none does: on PostgreSQL a result set is found by its place among the statements.
    /// </summary>
    public async Task ExecuteAsync(DbConnection connection, DbTransaction tx, CancellationToken ct)
    {
        if (_statements.Count == 0) return;
        var reads = _statements.Count(s => s.Read is not null);
        if (reads != 0 && reads != _statements.Count)
            throw new InvalidOperationException("A batch's statements either all read their result or none does.");
        try
        {
            if (connection.CanCreateBatch)
                await ExecuteAsOneAsync(connection, tx, reads != 0, ct);
            else
                foreach (var statement in _statements)
                    await ExecuteAloneAsync(connection, tx, statement, ct);
        }
        finally
        {
            _statements.Clear();
        }
    }

    async Task ExecuteAsOneAsync(DbConnection connection, DbTransaction tx, bool read, CancellationToken ct)
    {
        await using var batch = connection.CreateBatch();
        batch.Transaction = tx;
        foreach (var statement in _statements)
        {
            var command = batch.CreateBatchCommand();
            command.CommandText = statement.Sql;
            AddParameters(command.Parameters, command.CreateParameter, statement);
            batch.BatchCommands.Add(command);
        }
        if (!read)
        {
            await batch.ExecuteNonQueryAsync(ct);
            return;
        }
        await using var reader = await batch.ExecuteReaderAsync(ct);
        for (var i = 0; i < _statements.Count; i++)
        {
            if (i > 0 && !await reader.NextResultAsync(ct))
                throw new InvalidOperationException($"The batch returned {i} results for {_statements.Count} statements.");
            await _statements[i].Read!(reader, ct);
        }
    }

    static async Task ExecuteAloneAsync(DbConnection connection, DbTransaction tx, Statement statement, CancellationToken ct)
    {
        await using var command = connection.CreateCommand();
        command.Transaction = tx;
        command.CommandText = statement.Sql;
        AddParameters(command.Parameters, command.CreateParameter, statement);
        if (statement.Read is null)
        {
            await command.ExecuteNonQueryAsync(ct);
            return;
        }
        await using var reader = await command.ExecuteReaderAsync(ct);
        await statement.Read(reader, ct);
    }

    static void AddParameters(DbParameterCollection parameters, Func<DbParameter> create, Statement statement)
    {
        foreach (var (name, value) in statement.Parameters)
        {
            var parameter = create();
            parameter.ParameterName = name;
            parameter.Value = Value(value);
            parameters.Add(parameter);
        }
    }

    /// <summary>Times as the store keeps them (<see cref="StoreTime"/>), as Dapper's handler passes them elsewhere.</summary>
    static object Value(object? value) => value switch
    {
        null => DBNull.Value,
        DateTimeOffset time => StoreTime.ToText(time),
        _ => value,
    };
}

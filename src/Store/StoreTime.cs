using System.Data;
using System.Globalization;
using Dapper;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace IfiDashboard.Store;

/// <summary>
/// Times are stored as fixed-width ISO-8601 UTC text, so that comparing the text (in indexes, in
/// <c>next_poll_at &lt;= @now</c>) orders them exactly as the instants they stand for. Store code reads and passes
/// <see cref="DateTimeOffset"/> values: Dapper converts them through the handlers below.
/// </summary>
internal static class StoreTime
{
    const string Format = "yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'";

    public static string ToText(DateTimeOffset value) =>
        value.UtcDateTime.ToString(Format, CultureInfo.InvariantCulture);

    public static string? ToText(DateTimeOffset? value) => value is { } v ? ToText(v) : null;

    public static DateTimeOffset Parse(string text) =>
        DateTimeOffset.ParseExact(text, Format, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);

    /// <summary>A time as a server's own clock recorded it (trace, msdb): no zone, fixed width, so it compares as text.</summary>
    public static string ServerLocalText(DateTime value) =>
        value.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff", CultureInfo.InvariantCulture);

    /// <summary>
    /// Registers the handlers, once per process through <see cref="StoreTypeHandlers"/>. Dapper maps
    /// <see cref="DateTimeOffset"/> itself unless its built-in mapping is removed, and then never asks a handler for
    /// parameters.
    /// </summary>
    internal static void AddDapperHandlers()
    {
        SqlMapper.RemoveTypeMap(typeof(DateTimeOffset));
        SqlMapper.RemoveTypeMap(typeof(DateTimeOffset?));
        SqlMapper.AddTypeHandler(typeof(DateTimeOffset), TimeHandler.Instance);
        SqlMapper.AddTypeHandler(typeof(DateTimeOffset?), TimeHandler.Instance);
    }

    // Dapper's handlers are process-wide, and the embedded collector reads datetimeoffset columns from SQL Server
    // through Dapper in the same process: only the store's providers get text; any other connection keeps what
    // Dapper's built-in mapping did (the value as it is, DbType.DateTimeOffset). A NULL gets its type too: PostgreSQL
    // cannot type an untyped NULL in "@from IS NULL OR occurred_at >= @from".
    internal static void SetParameter(IDbDataParameter parameter, DateTimeOffset? value)
    {
        if (parameter is SqliteParameter or NpgsqlParameter)
        {
            parameter.DbType = DbType.String;
            parameter.Value = value is { } v ? ToText(v) : DBNull.Value;
        }
        else
        {
            parameter.DbType = DbType.DateTimeOffset;
            parameter.Value = value is { } v ? v : DBNull.Value;
        }
    }

    // ITypeHandler rather than TypeHandler<T>: the generic base sets a NULL parameter itself without its type, and one
    // handler serves both the value and the nullable type (Dapper hands a single-value query's NULL to the handler).
    sealed class TimeHandler : SqlMapper.ITypeHandler
    {
        public static readonly TimeHandler Instance = new();

        public void SetValue(IDbDataParameter parameter, object value) =>
            SetParameter(parameter, value is DateTimeOffset instant ? instant : null);

        public object? Parse(Type destinationType, object value) => value switch
        {
            DBNull when destinationType == typeof(DateTimeOffset?) => null,
            string text => StoreTime.Parse(text),
            DateTimeOffset instant => instant,
            _ => throw new InvalidCastException($"A {value.GetType().Name} value cannot be read as a {destinationType.Name}."),
        };
    }
}

using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.VirtualTables;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>The built-in functions and @@ values the simulator models, typed as SQL Server types them.</summary>
internal static class SystemFunctions
{
    // SQL Server has no session ids in the scenario model; 51 is the first user session id on a real server.
    private const short SessionId = 51;

    private static readonly ValueShape Sysname = new(SqlType.NVarChar, true, 128);
    private static readonly ValueShape NullableInt = new(SqlType.Int, true);

    public static BoundExpr Variable(VariableRef variable, BindScope scope)
    {
        var session = scope.Session;
        return variable.Name.ToUpperInvariant() switch
        {
            "@@VERSION" => new BoundExpr(new ValueShape(SqlType.NVarChar, false, 300), _ => VersionBanner.For(session)),
            "@@SERVERNAME" => new BoundExpr(Sysname, _ => ServerIdentity.ServerName(session.Instance)),
            "@@SERVICENAME" => new BoundExpr(Sysname, _ => session.Instance.InstanceName ?? "MSSQLSERVER"),
            "@@SPID" => new BoundExpr(new ValueShape(SqlType.SmallInt, false), _ => SessionId),
            "@@LANGUAGE" => new BoundExpr(Sysname, _ => "us_english"),
            // The configuration functions' documented types and the values of a server with default settings.
            "@@LANGID" => new BoundExpr(new ValueShape(SqlType.SmallInt, false), _ => (short)0),
            "@@MAX_PRECISION" => new BoundExpr(new ValueShape(SqlType.TinyInt, false), _ => (byte)38),
            "@@DATEFIRST" => new BoundExpr(new ValueShape(SqlType.TinyInt, false), _ => (byte)7),
            "@@LOCK_TIMEOUT" => new BoundExpr(new ValueShape(SqlType.Int, false), _ => -1),
            "@@MAX_CONNECTIONS" => new BoundExpr(new ValueShape(SqlType.Int, false), _ => 32767),
            "@@MICROSOFTVERSION" => new BoundExpr(new ValueShape(SqlType.Int, false), _ => MicrosoftVersion(session)),
            "@@TRANCOUNT" => new BoundExpr(new ValueShape(SqlType.Int, false), _ => session.TransactionCount),
            // SQL Server reads an unknown @@name as an undeclared variable.
            _ => throw SqlErrors.UndeclaredVariable(variable.Name, variable.Line),
        };
    }

    /// <summary>Major version in the high byte, minor in the next, build in the low 16 bits (@@MICROSOFTVERSION).</summary>
    private static int MicrosoftVersion(SessionContext session)
    {
        var version = Version.Parse(session.Profile.ProductVersion);
        return (version.Major << 24) | (version.Minor << 16) | version.Build;
    }

    public static BoundExpr Call(FunctionCall call, BindScope scope)
    {
        var session = scope.Session;
        switch (call.Name)
        {
            case "COUNT":
                return Count(call, scope);
            case "MIN" or "MAX":
                return Extreme(call, scope, call.Name == "MAX");
            case "SERVERPROPERTY":
                var property = Single(call, scope);
                return new BoundExpr(new ValueShape(SqlType.SqlVariant, true, 8016),
                    row => property.Evaluate(row) is { } name ? ServerProperties.Get(Text(name), session) : null);
            case "OBJECT_ID":
                var objectName = Arguments(call, scope, 1, 2)[0];
                return new BoundExpr(NullableInt,
                    row => objectName.Evaluate(row) is { } name ? VirtualCatalog.ObjectId(Text(name), session) : null);
            case "DB_NAME":
                var id = Arguments(call, scope, 0, 1).FirstOrDefault();
                return new BoundExpr(Sysname, row => id is null
                    ? session.Database
                    : id.Evaluate(row) is { } value ? DatabasesTable.NameOf(session, Convert.ToInt64(Unwrap(value))) : null);
            case "DB_ID":
                var db = Arguments(call, scope, 0, 1).FirstOrDefault();
                return new BoundExpr(new ValueShape(SqlType.SmallInt, true), row =>
                {
                    var name = db is null ? session.Database : db.Evaluate(row) is { } v ? Text(v) : null;
                    return DatabasesTable.IdOf(session, name) is { } found ? (short)found : null;
                });
            case "SYSDATETIMEOFFSET" or "SYSDATETIME" or "SYSUTCDATETIME" or "GETDATE" or "GETUTCDATE":
                Arguments(call, scope, 0, 0);
                return ServerClockFunctions.Bind(call.Name, scope);
            default:
                throw SqlErrors.UnknownFunction(call.Name, call.Line);
        }
    }

    private static BoundExpr Count(FunctionCall call, BindScope scope)
    {
        // COUNT is typed int and, like every scalar aggregate in a SELECT list, reported as nullable.
        var shape = NullableInt;
        if (call.Star)
        {
            return new BoundExpr(shape, _ => null, Aggregate: rows => rows.Count);
        }

        var operand = Single(call, scope);
        return new BoundExpr(shape, _ => null, Aggregate: rows => rows.Count(r => operand.Evaluate(r) is not null));
    }

    /// <summary>MIN / MAX: the operand's type, NULLs ignored, NULL over no rows (so always reported as nullable).</summary>
    private static BoundExpr Extreme(FunctionCall call, BindScope scope, bool max)
    {
        var operand = Single(call, scope);
        return new BoundExpr(operand.Shape with { Nullable = true }, _ => null, Aggregate: rows =>
        {
            object? best = null;
            foreach (var row in rows)
            {
                if (operand.Evaluate(row) is not { } value)
                    continue;
                if (best is null || SqlCompare.CompareForSort(value, best) is var order && (max ? order > 0 : order < 0))
                    best = value;
            }

            return best;
        });
    }

    private static BoundExpr Single(FunctionCall call, BindScope scope) => Arguments(call, scope, 1, 1)[0];

    private static IReadOnlyList<BoundExpr> Arguments(FunctionCall call, BindScope scope, int min, int max)
    {
        if (call.Star || call.Arguments.Count < min || call.Arguments.Count > max)
        {
            throw new QueryException(new SqlMessage(174, 1, 15,
                $"The {call.Name.ToLowerInvariant()} function requires {min} argument(s).", call.Line));
        }

        return call.Arguments.Select(a => ExpressionBinder.Bind(a, scope)).ToList();
    }

    private static object Unwrap(object value) => value is VariantValue v ? v.Value : value;

    private static string Text(object value) => SqlConvert.ToText(Unwrap(value));
}

using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Parsing;

/// <summary>Maps a T-SQL type name with its arguments to the wire shape a CAST or CONVERT produces.</summary>
internal static class TypeNames
{
    // SQL Server's default length when CAST/CONVERT names a character type without one.
    private const int DefaultCastLength = 30;

    public static TypeSpec Resolve(string name, IReadOnlyList<int> arguments, int line)
    {
        var lower = name.ToLowerInvariant();
        int Arg(int index, int fallback) => arguments.Count > index ? arguments[index] : fallback;

        // Result sets carry no varchar/char/nchar type (see SqlType), so those travel as nvarchar of the same length.
        return lower switch
        {
            "nvarchar" or "varchar" or "nchar" or "char" =>
                new TypeSpec(lower, SqlType.NVarChar, Arg(0, DefaultCastLength)),
            "sysname" => new TypeSpec(lower, SqlType.NVarChar, 128),
            "int" => new TypeSpec(lower, SqlType.Int),
            "bigint" => new TypeSpec(lower, SqlType.BigInt),
            "smallint" => new TypeSpec(lower, SqlType.SmallInt),
            "tinyint" => new TypeSpec(lower, SqlType.TinyInt),
            "bit" => new TypeSpec(lower, SqlType.Bit),
            "datetime" => new TypeSpec(lower, SqlType.DateTime),
            "datetime2" => new TypeSpec(lower, SqlType.DateTime2, Scale: (byte)Arg(0, 7)),
            "datetimeoffset" => new TypeSpec(lower, SqlType.DateTimeOffset, Scale: (byte)Arg(0, 7)),
            "decimal" or "numeric" =>
                new TypeSpec(lower, SqlType.Decimal, Precision: (byte)Arg(0, 18), Scale: (byte)Arg(1, 0)),
            _ => throw new QueryException(
                new SqlMessage(243, 2, 16, $"Type {name} is not a defined system type.", line)),
        };
    }
}

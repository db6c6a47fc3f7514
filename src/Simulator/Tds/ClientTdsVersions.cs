using System.Globalization;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tds;

/// <summary>
/// The TDS versions a LOGINACK can agree on, and what a client of an older one gets instead of types its version
/// lacks ([MS-TDS] 2.2.5.4.3, 2.2.7.4): before 7.3 (SQL Server 2008) date, time, datetime2 and datetimeoffset travel
/// as nvarchar, in SQL Server's string form; before 7.2 (SQL Server 2005) the max types travel as ntext, since there
/// is no PLP, and DONE row counts and COLMETADATA UserType are narrower.
/// </summary>
internal static class ClientTdsVersions
{
    public const uint Tds71 = 0x71000001, Tds72 = 0x72090002, Tds73A = 0x730A0003, Tds73B = 0x730B0003, Tds74 = 0x74000004;

    /// <summary>
    /// The version LOGINACK answers: the client's own for 7.1 to 7.3 (the highest both speak), 7.4 for 7.4 and
    /// later (TDS 8.0 clients send 0x08000000 and get 7.4).
    /// </summary>
    public static uint Agreed(uint client) => client is Tds71 or Tds72 or Tds73A or Tds73B ? client : Tds74;

    /// <summary>Whether the client reads the max types as PLP (7.2 and later) rather than ntext.</summary>
    public static bool HasPlp(uint version) => version >= Tds72;

    /// <summary>
    /// The column as this client sees it: a 7.3+ date/time type becomes nvarchar of its string form's length
    /// ("Using Date and Time Data", down-level clients: date nvarchar(10), time(n) nvarchar(8 + n + 1)).
    /// </summary>
    public static ResultColumn OnWire(ResultColumn column, uint version)
    {
        if (version >= Tds73A) return column;
        return column.Type switch
        {
            SqlType.DateTime2 => ResultColumn.NVarChar(column.Name, DateTime2Length(column.Scale), column.Nullable),
            SqlType.DateTimeOffset => ResultColumn.NVarChar(column.Name, DateTime2Length(column.Scale) + 7, column.Nullable),
            SqlType.Date => ResultColumn.NVarChar(column.Name, 10, column.Nullable),
            SqlType.Time => ResultColumn.NVarChar(column.Name, DateTime2Length(column.Scale) - 11, column.Nullable),
            _ => column,
        };
    }

    /// <summary>The value as <see cref="OnWire"/>'s column carries it: "2026-11-01 06:00:00.0000000 +00:00" for datetimeoffset(7).</summary>
    public static object? ValueOnWire(ResultColumn column, object? value, uint version)
    {
        if (version >= Tds73A || value is null) return value;
        return (column.Type, value) switch
        {
            (SqlType.DateTime2, DateTime d) => d.ToString(DateTime2Format(column.Scale), CultureInfo.InvariantCulture),
            (SqlType.DateTimeOffset, DateTimeOffset o) =>
                o.ToString(DateTime2Format(column.Scale) + " zzz", CultureInfo.InvariantCulture),
            (SqlType.Date, DateTime d) => d.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
            (SqlType.Time, TimeSpan t) => t.ToString(@"hh\:mm\:ss" + (column.Scale > 0 ? @"\." + new string('f', column.Scale) : ""),
                CultureInfo.InvariantCulture),
            _ => value,
        };
    }

    static int DateTime2Length(byte scale) => 19 + (scale > 0 ? scale + 1 : 0);

    static string DateTime2Format(byte scale) => "yyyy-MM-dd HH:mm:ss" + (scale > 0 ? "." + new string('f', scale) : "");
}

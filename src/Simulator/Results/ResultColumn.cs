namespace IfiDashboard.Simulator.Results;

/// <summary>
/// One column of a result set, typed as SQL Server types it. <see cref="MaxLength"/> is in characters for nvarchar
/// (-1 for nvarchar(max)); <see cref="Scale"/> is the fractional-second scale for datetime2/datetimeoffset.
/// </summary>
public sealed record ResultColumn(
    string Name,
    SqlType Type,
    bool Nullable = true,
    int MaxLength = 0,
    byte Precision = 0,
    byte Scale = 0)
{
    public static ResultColumn NVarChar(string name, int maxLength, bool nullable = true) =>
        new(name, SqlType.NVarChar, nullable, maxLength);
}

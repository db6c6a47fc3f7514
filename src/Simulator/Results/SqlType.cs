namespace IfiDashboard.Simulator.Results;

/// <summary>The SQL Server types the simulator can put on the wire, with their TDS type token.</summary>
public enum SqlType
{
    NVarChar,
    Int,
    BigInt,
    SmallInt,
    TinyInt,
    Bit,
    DateTime,
    DateTime2,
    DateTimeOffset,
    Decimal,
    SqlVariant,
}

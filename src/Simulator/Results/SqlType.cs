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
    // The types RPC parameters arrive as, so a parameter selected back keeps its type.
    NChar,
    VarChar,
    Char,
    VarBinary,
    Binary,
    Float,
    Real,
    Money,
    SmallMoney,
    SmallDateTime,
    Date,
    Time,
    UniqueIdentifier,
    Numeric,
}

namespace IfiDashboard.Simulator.Tds;

/// <summary>TDS packet header types ([MS-TDS] 2.2.3.1.1).</summary>
internal static class TdsPacketType
{
    public const byte SqlBatch = 0x01;
    public const byte Rpc = 0x03;
    public const byte TabularResult = 0x04;
    public const byte Attention = 0x06;
    public const byte TransactionManager = 0x0E;
    public const byte Login7 = 0x10;
    public const byte Sspi = 0x11;
    public const byte PreLogin = 0x12;
}

/// <summary>Packet header status bits ([MS-TDS] 2.2.3.1.2).</summary>
internal static class TdsPacketStatus
{
    public const byte EndOfMessage = 0x01;
    public const byte ResetConnection = 0x08;
    public const byte ResetConnectionSkipTransaction = 0x10;
}

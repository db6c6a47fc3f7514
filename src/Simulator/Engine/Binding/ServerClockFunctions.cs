using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>
/// The date and time functions, read from the engine's clock in the instance's local time (TimeZone or UtcOffsetMinutes), so a
/// collector can learn the offset that turns trace and msdb times into UTC.
/// </summary>
internal static class ServerClockFunctions
{
    public static BoundExpr Bind(string name, BindScope scope)
    {
        var clock = scope.Clock;
        var instance = scope.Session.Instance;
        DateTimeOffset Now()
        {
            var utc = clock.GetUtcNow();
            return utc.ToOffset(ServerClock.OffsetAt(instance, utc));
        }
        return name switch
        {
            "SYSDATETIMEOFFSET" => new BoundExpr(new ValueShape(SqlType.DateTimeOffset, false, Scale: 7), _ => Now()),
            "SYSDATETIME" => new BoundExpr(new ValueShape(SqlType.DateTime2, false, Scale: 7), _ => Now().DateTime),
            "SYSUTCDATETIME" => new BoundExpr(new ValueShape(SqlType.DateTime2, false, Scale: 7), _ => Now().UtcDateTime),
            "GETDATE" => new BoundExpr(new ValueShape(SqlType.DateTime, false), _ => ServerClock.ToDateTimePrecision(Now().DateTime)),
            _ => new BoundExpr(new ValueShape(SqlType.DateTime, false), _ => ServerClock.ToDateTimePrecision(Now().UtcDateTime)),
        };
    }
}

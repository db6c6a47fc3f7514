using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>
/// The date and time functions, read from the engine's clock in the instance's local time (UtcOffsetMinutes), so a
/// collector can learn the offset that turns trace and msdb times into UTC.
/// </summary>
internal static class ServerClockFunctions
{
    public static BoundExpr Bind(string name, BindScope scope)
    {
        var clock = scope.Clock;
        var offset = TimeSpan.FromMinutes(scope.Session.Instance.UtcOffsetMinutes);
        DateTimeOffset Now() => clock.GetUtcNow().ToOffset(offset);
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

using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine;

/// <summary>
/// Scenario times are UTC; the default trace, the error log and msdb report the server's local time, as datetime.
/// </summary>
internal static class ServerClock
{
    private const double DateTimeTicksPerSecond = 300;

    public static DateTime Local(ScenarioInstance instance, DateTimeOffset utc) =>
        ToDateTimePrecision(utc.UtcDateTime.Add(OffsetAt(instance, utc)));

    /// <summary>The server's offset from UTC at that moment: its time zone's, or the scenario's fixed offset.</summary>
    public static TimeSpan OffsetAt(ScenarioInstance instance, DateTimeOffset utc) => instance.TimeZone is { } zone
        ? TimeZoneInfo.FindSystemTimeZoneById(zone).GetUtcOffset(utc)
        : TimeSpan.FromMinutes(instance.UtcOffsetMinutes);

    /// <summary>datetime keeps 1/300-second ticks, so a real server shows .000, .003 and .007 endings.</summary>
    public static DateTime ToDateTimePrecision(DateTime value)
    {
        var units = Math.Round(value.TimeOfDay.Ticks * DateTimeTicksPerSecond / TimeSpan.TicksPerSecond,
            MidpointRounding.AwayFromZero);
        var ticks = (long)Math.Round(units * TimeSpan.TicksPerSecond / DateTimeTicksPerSecond);
        return DateTime.SpecifyKind(value.Date.AddTicks(ticks), DateTimeKind.Unspecified);
    }
}

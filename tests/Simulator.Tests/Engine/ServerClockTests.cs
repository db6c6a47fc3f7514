using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class ServerClockTests
{
    [Fact]
    public void Sysdatetimeoffset_is_the_clock_in_the_instance_offset()
    {
        var result = new EngineHarness("2019", i => i.UtcOffsetMinutes = 60).Query("SELECT SYSDATETIMEOFFSET() AS ServerTime;");

        var value = Assert.IsType<DateTimeOffset>(Assert.Single(result.Rows)[0]);
        Assert.Equal((EngineHarness.Now, TimeSpan.FromHours(1)), (value, value.Offset));
        Assert.Equal((SqlType.DateTimeOffset, (byte)7, false), (result.Columns[0].Type, result.Columns[0].Scale, result.Columns[0].Nullable));
    }

    [Fact]
    public void Getdate_is_local_datetime_and_getutcdate_is_utc()
    {
        var row = Assert.Single(new EngineHarness("2019", i => i.UtcOffsetMinutes = -300).Query("SELECT GETDATE(), GETUTCDATE()").Rows);

        Assert.Equal(new object?[] { new DateTime(2026, 11, 21, 22, 15, 0), new DateTime(2026, 11, 22, 3, 15, 0) }, row);
    }
}

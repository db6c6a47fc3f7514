using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

/// <summary>DBCC TRACESTATUS as the collector sends it; any other DBCC command fails loudly.</summary>
public sealed class DbccTests
{
    [Fact]
    public void Tracestatus_minus_one_lists_the_global_flags_without_info_messages()
    {
        var harness = new EngineHarness("2019", i => i.GlobalTraceFlags = [3226, 1806], "VIEW SERVER STATE");

        var items = harness.Run("DBCC TRACESTATUS(-1) WITH NO_INFOMSGS;").Items;

        var result = Assert.IsType<ResultSet>(Assert.Single(items));
        Assert.Equal(["TraceFlag", "Status", "Global", "Session"], result.Columns.Select(c => c.Name));
        Assert.Equal([1806, 3226], result.ColumnValues("TraceFlag"));
    }

    [Fact]
    public void Tracestatus_without_no_infomsgs_ends_with_the_completion_message()
    {
        var items = new EngineHarness("2019").Run("DBCC TRACESTATUS(1806)").Items;

        Assert.Equal([0], Assert.IsType<ResultSet>(items[0]).ColumnValues("Status"));
        Assert.Equal((2528, (byte)10), (Assert.IsType<SqlMessage>(items[1]).Number, ((SqlMessage)items[1]).Severity));
    }

    [Fact]
    public void Unknown_dbcc_command_is_msg_2526_and_a_log_line()
    {
        var harness = new EngineHarness("2019");

        Assert.Equal(2526, Assert.Single(harness.Errors("DBCC CHECKDB")).Number);
        Assert.Single(harness.Log);
    }
}

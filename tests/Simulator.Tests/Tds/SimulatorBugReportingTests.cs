using Dapper;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>A value the simulator cannot encode is its own bug: the client is told so, and the connection lives on.</summary>
public sealed class SimulatorBugReportingTests
{
    [Fact]
    public async Task Unencodable_value_answers_msg_50000_naming_the_simulator_and_the_connection_stays_usable()
    {
        await using var fleet = TestFleet.StartOne();
        var instance = fleet["sql"];
        await using var connection = await TestFleet.OpenAsync(instance);

        // decimal.MaxValue times 10^10 exceeds 38 digits: the encoder cannot put it on the wire (SQL Server would
        // refuse the CAST with an arithmetic overflow, which the engine does not model).
        var error = await Assert.ThrowsAsync<SqlException>(
            () => connection.QuerySingleAsync<decimal>("SELECT CAST(@p AS decimal(38, 10)) AS v", new { p = decimal.MaxValue }));

        Assert.Equal(50000, error.Number);
        Assert.StartsWith("Simulator bug:", error.Message);
        Assert.Single(instance.Transcript.TextsOf(TranscriptKinds.SimulatorError));
        Assert.Equal(1, await connection.ExecuteScalarAsync<int>("SELECT 1"));
    }
}

using Dapper;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

public sealed class ConnectionPoolingTests
{
    [Fact]
    public async Task Reused_pooled_connection_sends_the_reset_connection_bit_and_logs_in_once()
    {
        await using var fleet = TestFleet.StartOne();
        var instance = fleet["sql"];
        var connectionString = TestFleet.ConnectionString(instance, extra: "Pooling=true;Max Pool Size=1");
        try
        {
            for (var use = 0; use < 2; use++)
            {
                await using var connection = new SqlConnection(connectionString);
                await connection.OpenAsync();
                Assert.Equal("master", await connection.QuerySingleAsync<string>("SELECT DB_NAME() AS d"));
            }

            Assert.Single(instance.Transcript.TextsOf(TranscriptKinds.Login));
            Assert.NotEmpty(instance.Transcript.TextsOf(TranscriptKinds.Reset));
        }
        finally
        {
            SqlConnection.ClearPool(new SqlConnection(connectionString));
        }
    }
}

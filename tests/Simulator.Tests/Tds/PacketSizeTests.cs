using Dapper;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>Requests and results that span many packets, at the smallest and the largest packet size.</summary>
public sealed class PacketSizeTests
{
    [Theory]
    [InlineData(512, "Mandatory")]
    [InlineData(512, "Optional")]
    [InlineData(32767, "Mandatory")]
    [InlineData(32767, "Optional")]
    public async Task Multi_packet_result_reads_whole_at_the_negotiated_packet_size(int packetSize, string encrypt)
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];
        await using var connection = await TestFleet.OpenAsync(instance, encrypt, $"Pooling=false;Packet Size={packetSize}");

        var columns = (await connection.QueryAsync<(int, string, int)>("SELECT * FROM sys.all_columns")).AsList();

        Assert.Equal(packetSize, connection.PacketSize);
        Assert.True(columns.Count > 20, $"only {columns.Count} rows");
        Assert.Contains(columns, c => c.Item2 == "instant_file_initialization_enabled");
        Assert.DoesNotContain(instance.Transcript.Entries, e => e.Kind == TranscriptKinds.ProtocolError);
    }

    [Theory]
    [InlineData(512)]
    [InlineData(32767)]
    public async Task Request_and_answer_of_a_hundred_thousand_characters_cross_many_packets(int packetSize)
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"], extra: $"Pooling=false;Packet Size={packetSize}");
        // 200 KB each way: several 32767-byte packets, hundreds of 512-byte ones.
        var text = string.Create(100_000, 0, (span, _) =>
        {
            for (var i = 0; i < span.Length; i++) span[i] = (char)('a' + (i % 26));
        });

        var back = await connection.QuerySingleAsync<string>("SELECT @p AS v", new { p = text });

        Assert.Equal(text, back);
    }
}

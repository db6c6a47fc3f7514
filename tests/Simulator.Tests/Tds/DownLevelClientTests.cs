using System.Globalization;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// Clients older than TDS 7.4 and clients without TLS, met by jTDS, pymssql (FreeTDS db-lib) and tedious: the LOGINACK
/// carries the agreed version ([MS-TDS] 2.2.7.14), a 7.1/7.2 client gets datetimeoffset as nvarchar in SQL Server's
/// string form ("Date and Time Data Types and Functions", down-level clients: "YYYY-MM-DD hh:mm:ss[.nnnnnnn]
/// [+|-]hh:mm"), and Force Encryption answers ENCRYPT_REQ to a client that offers none ([MS-TDS] 2.2.6.5).
/// </summary>
public sealed class DownLevelClientTests
{
    private const string StartTime = "SELECT last_startup_time AS started FROM sys.dm_server_services WHERE process_id = 4242";
    private const string StartTimeText = "2026-11-01 06:00:00.0000000 +00:00";

    // jTDS speaks TDS 7.1 ("tds=8.0", its default for SQL Server).
    [Fact]
    public async Task Jtds_is_answered_as_the_tds_7_1_client_it_is()
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];

        var result = await ScriptedClient.JtdsAsync(instance.Port, $"sql {StartTime}\n");

        Assert.Empty(result.Errors);
        Assert.Equal("nvarchar", result.ColumnTypes(0)[0]);
        Assert.Equal(StartTimeText, result.FirstRow(0)[0]);
        Assert.All(instance.Transcript.TextsOf(TranscriptKinds.Login), l => Assert.EndsWith("tds=0x71000001", l, StringComparison.Ordinal));
    }

    // db-lib reports the version the LOGINACK agreed (dbtds).
    [Theory]
    [InlineData("7.1")]
    [InlineData("7.2")]
    public async Task Dblib_agrees_the_version_it_asked_for_and_reads_datetimeoffset_as_text(string version)
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await ScriptedClient.DbLibAsync(fleet["sql"].Port, $"sql {StartTime}\n", version);

        Assert.Equal(double.Parse(version, CultureInfo.InvariantCulture), result.Lines[0].GetProperty("tdsVersion").GetDouble());
        Assert.Equal(StartTimeText, result.FirstRow(0)[0]);
    }

    // Before TDS 7.2 there is no PLP ([MS-TDS] 2.2.5.2.3): nvarchar(max) and varbinary(max) travel as ntext and image,
    // which fn_trace_gettable's TextData and BinaryData are on a real server anyway.
    [Fact]
    public async Task Jtds_reads_the_trace_max_columns_as_ntext_and_image()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.GrowthEvents =
            [new ScenarioGrowthEvent { Database = "master", FileName = "master", StartTime = new(2026, 11, 10, 1, 0, 0, TimeSpan.Zero), DurationMicroseconds = 1_000 }]);
        const string trace = @"C:\Program Files\Microsoft SQL Server\MSSQL15.MSSQLSERVER\MSSQL\Log\log.trc";

        var result = await ScriptedClient.JtdsAsync(fleet["sql"].Port, $"sql SELECT * FROM sys.fn_trace_gettable(N'{trace}', DEFAULT)\n");

        Assert.Empty(result.Errors);
        Assert.Equal(DocumentedColumnsTests.TraceColumns.Length, result.ColumnTypes(0).Count);
        Assert.Equal(("ntext", "image", "image"), (result.ColumnTypes(0)[0], result.ColumnTypes(0)[1], result.ColumnTypes(0)[40]));
        Assert.Equal("master", result.FirstRow(0)[34]?.ToString());
    }

    // tedious's encrypt: false offers ENCRYPT_NOT_SUP; a Force Encryption server answers ENCRYPT_REQ and the client ends.
    [Fact]
    public async Task Force_encryption_answers_encrypt_req_to_tedious_without_tls()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.Encryption = EncryptionSupport.Required);
        var instance = fleet["sql"];

        var result = await TediousClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, false, StartTime);

        Assert.NotNull(result.Error);
        Assert.Equal(["required, client does not support it"], instance.Transcript.TextsOf(TranscriptKinds.Encryption));
        Assert.Empty(instance.Transcript.TextsOf(TranscriptKinds.ProtocolError));
    }
}

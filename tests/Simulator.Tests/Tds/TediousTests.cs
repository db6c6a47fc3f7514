using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// The simulator met by tedious, a client its authors did not write: every encryption mode it offers, each TDS
/// version from 7.1 to 7.4 (the LOGINACK echoes it and older clients get only types their version has), and the
/// columns SELECT * returns.
/// </summary>
public sealed class TediousTests
{
    private const string EngineRow = "SELECT servicename, instant_file_initialization_enabled FROM sys.dm_server_services WHERE process_id = 4242";

    public static TheoryData<string, EncryptionSupport, object, string> EncryptionModes => new()
    {
        // profile, server's encryption, tedious's encrypt, what the simulator negotiated
        // tedious's encrypt: false offers no TLS at all (ENCRYPT_NOT_SUP), unlike SqlClient's login-only TLS.
        { "2019", EncryptionSupport.Optional, false, "none" },
        { "2019", EncryptionSupport.Optional, true, "full" },
        { "2019", EncryptionSupport.Required, true, "full" },
        { "2022", EncryptionSupport.Optional, "strict", "strict" },
        { "2022", EncryptionSupport.Strict, "strict", "strict" },
    };

    [Theory]
    [MemberData(nameof(EncryptionModes))]
    public async Task Tedious_reads_the_ifi_flag_in_every_encryption_mode(string profile, EncryptionSupport server, object encrypt, string negotiated)
    {
        await using var fleet = TestFleet.StartOne(profile, i =>
        {
            i.IfiEnabled = true;
            i.Encryption = server;
        });
        var instance = fleet["sql"];

        var result = await TediousClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, encrypt, EngineRow);

        Assert.True(result.Error is null, $"{result.Raw}\n{string.Join("\n", instance.Transcript.Entries)}");
        Assert.Equal("Y", Assert.Single(result.Rows)[1].GetString());
        Assert.Equal([negotiated], instance.Transcript.TextsOf(TranscriptKinds.Encryption));
        Assert.Empty(instance.Transcript.TextsOf(TranscriptKinds.ProtocolError));
    }

    public static TheoryData<string, string, string, string> Versions => new()
    {
        // tedious's version, the LOGINACK the simulator logs, last_startup_time's type, sp_readerrorlog Text's type
        { "7_1", "0x71000001", "NVarChar", "NText" },
        { "7_2", "0x72090002", "NVarChar", "NVarChar" },
        { "7_3_A", "0x730A0003", "DateTimeOffset", "NVarChar" },
        { "7_3_B", "0x730B0003", "DateTimeOffset", "NVarChar" },
        { "7_4", "0x74000004", "DateTimeOffset", "NVarChar" },
    };

    // [MS-TDS]: LOGINACK carries the highest version both speak; before 7.3 the date/time types travel as nvarchar,
    // before 7.2 the max types as ntext.
    [Theory]
    [MemberData(nameof(Versions))]
    public async Task Each_tds_version_is_echoed_and_gets_only_the_types_it_can_read(string asked, string loginAck,
        string dateTimeOffsetType, string maxType)
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];

        var dates = await TediousClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, false,
            "SELECT servicename, last_startup_time FROM sys.dm_server_services WHERE process_id = 4242", asked);
        var max = await TediousClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, false,
            "SELECT CAST(N'Database Instant File Initialization: enabled' AS nvarchar(max)) AS Text", asked);

        Assert.True(dates.Error is null && max.Error is null, $"{dates.Raw}\n{max.Raw}\n{string.Join("\n", instance.Transcript.Entries)}");
        Assert.Equal(asked, dates.TdsVersion);
        Assert.All(instance.Transcript.TextsOf(TranscriptKinds.Login), l => Assert.EndsWith($"tds={loginAck}", l, StringComparison.Ordinal));
        Assert.Equal(dateTimeOffsetType, dates.Columns[1].Type);
        var started = Assert.Single(dates.Rows)[1];
        Assert.Contains("2026-11-01", started.ToString(), StringComparison.Ordinal);
        Assert.Equal(maxType, max.Columns[0].Type);
        Assert.Equal("Database Instant File Initialization: enabled", Assert.Single(max.Rows)[0].GetString());
    }
}

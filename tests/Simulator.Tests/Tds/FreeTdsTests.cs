using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>FreeTDS logs in, negotiates TLS through PRELOGIN with GnuTLS where asked, and reads the IFI column.</summary>
public sealed class FreeTdsTests
{
    private const string Script = "SELECT servicename, instant_file_initialization_enabled FROM sys.dm_server_services\ngo\nexit\n";

    [Theory]
    [InlineData(EncryptionSupport.NotSupported, "request", "none")]
    [InlineData(EncryptionSupport.Optional, "off", "none")]
    [InlineData(EncryptionSupport.Optional, "request", "login-only")]
    [InlineData(EncryptionSupport.Optional, "require", "full")]
    [InlineData(EncryptionSupport.Required, "request", "full")]
    [InlineData(EncryptionSupport.Required, "require", "full")]
    public async Task Tsql_reads_the_engine_row_and_ifi_flag(EncryptionSupport server, string clientEncryption, string expectedTls)
    {
        await using var fleet = TestFleet.StartOne("2019", i =>
        {
            i.IfiEnabled = true;
            i.Encryption = server;
        });
        var instance = fleet["sql"];

        var result = await FreeTdsClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, clientEncryption, Script);

        var diagnosis = $"tsql exit {result.ExitCode}\n{result.Output}\n{result.Errors}\n{string.Join("\n", instance.Transcript.Entries)}";
        Assert.True(result.Output.Contains("SQL Server (MSSQLSERVER)\tY", StringComparison.Ordinal), diagnosis);
        Assert.Contains("(4 rows affected)", result.Output);
        Assert.Equal([expectedTls], instance.Transcript.TextsOf(TranscriptKinds.Encryption));
        Assert.Empty(instance.Transcript.TextsOf(TranscriptKinds.ProtocolError));
    }

    // [MS-TDS]: a server that requires encryption answers ENCRYPT_REQ, and the client without TLS ends the connection.
    [Fact]
    public async Task Force_encryption_answers_encrypt_req_to_a_client_without_tls()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.Encryption = EncryptionSupport.Required);
        var instance = fleet["sql"];

        var result = await FreeTdsClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, "off", Script);

        Assert.DoesNotContain("(4 rows affected)", result.Output);
        Assert.Equal(["required, client does not support it"], instance.Transcript.TextsOf(TranscriptKinds.Encryption));
        Assert.Empty(instance.Transcript.TextsOf(TranscriptKinds.ProtocolError));
    }

    [Theory]
    [InlineData("7.1", "0x71000001")]
    [InlineData("7.2", "0x72090002")]
    [InlineData("7.4", "0x74000004")]
    public async Task Login_ack_answers_the_tds_version_the_client_asked_for(string asked, string answered)
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];

        var result = await FreeTdsClient.RunAsync(instance.Port, TestFleet.Login, TestFleet.Password, "off",
            "SELECT CAST(SERVERPROPERTY('ProcessID') AS int) AS pid\ngo\nexit\n", asked);

        Assert.True(result.Output.Contains("4242", StringComparison.Ordinal), $"{result.Output}\n{result.Errors}");
        Assert.Contains(instance.Transcript.TextsOf(TranscriptKinds.Login), l => l.EndsWith($"tds={answered}", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Tsql_with_a_wrong_password_sees_login_failed_18456()
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];

        var result = await FreeTdsClient.RunAsync(instance.Port, TestFleet.Login, "wrong", "request", Script);

        Assert.Contains("18456", result.Output + result.Errors);
        Assert.Single(instance.Transcript.TextsOf(TranscriptKinds.LoginFailed));
    }
}

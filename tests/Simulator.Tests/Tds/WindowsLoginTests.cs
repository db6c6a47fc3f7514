using System.Buffers.Binary;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;
using IfiDashboard.Simulator.Tds;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// Windows logins (a scenario login without a password) sign in with integrated security only; the Kerberos exchange
/// itself runs against a real KDC in tests/Collector.Tests/Kerberos.
/// </summary>
public sealed class WindowsLoginTests
{
    [Theory]
    [InlineData("collector@IFI.TEST", @"IFI\collector")]
    [InlineData("svc-ifi@CORP.EXAMPLE.COM", @"CORP\svc-ifi")]
    [InlineData("collector", "collector")]
    public void Kerberos_principal_maps_to_the_windows_login_active_directory_would_name(string principal, string login) =>
        Assert.Equal(login, TdsConnection.WindowsLoginName(principal));

    [Theory]
    [InlineData("")]
    [InlineData("anything")]
    public async Task Windows_login_cannot_be_used_as_a_sql_login_whatever_the_password(string password)
    {
        await using var fleet = FleetSimulator.Start(new Scenario
        {
            DefaultLogins = [new ScenarioLogin { Name = @"IFI\collector" }],
            Instances = [new ScenarioInstance { Name = "sql", Profile = "2019" }],
        }, _ => { });
        var instance = fleet["sql"];
        await using var connection = new SqlConnection(instance.ConnectionString(@"IFI\collector", password) + ";Pooling=false");

        var error = await Assert.ThrowsAsync<SqlException>(() => connection.OpenAsync());

        Assert.Equal(18456, error.Number);
        Assert.Equal([@"IFI\collector"], instance.Transcript.TextsOf(TranscriptKinds.LoginFailed));
    }

    [Theory]
    [InlineData(1_500)]
    [InlineData(70_000)] // beyond cbSSPI's 16 bits: 0xFFFF there and the length in cbSSPILong
    public void Login7_gives_the_sspi_token_of_an_integrated_security_login(int tokenLength)
    {
        var token = Enumerable.Range(0, tokenLength).Select(i => (byte)(i * 7)).ToArray();

        var login = Login7.Parse(IntegratedLogin7(token));

        Assert.True(login.IntegratedSecurity);
        Assert.Equal(token, login.Sspi);
        Assert.Equal("", login.UserName);
    }

    /// <summary>A LOGIN7 ([MS-TDS] 2.2.6.4) with empty strings, fIntSecurity and the token after the fixed part.</summary>
    static byte[] IntegratedLogin7(byte[] token)
    {
        const int fixedLength = 94;
        var payload = new byte[fixedLength + token.Length];
        var span = payload.AsSpan();
        BinaryPrimitives.WriteUInt32LittleEndian(span, (uint)payload.Length);
        BinaryPrimitives.WriteUInt32LittleEndian(span[4..], 0x74000004);
        BinaryPrimitives.WriteUInt32LittleEndian(span[8..], 4096);
        payload[25] = 0x80; // OptionFlags2: fIntSecurity
        for (var field = 0; field < 9; field++) // HostName .. Database: offset of the data, no characters
            BinaryPrimitives.WriteUInt16LittleEndian(span[(36 + field * 4)..], fixedLength);
        BinaryPrimitives.WriteUInt16LittleEndian(span[78..], fixedLength); // ibSSPI
        BinaryPrimitives.WriteUInt16LittleEndian(span[80..], token.Length < ushort.MaxValue ? (ushort)token.Length : ushort.MaxValue);
        BinaryPrimitives.WriteUInt16LittleEndian(span[82..], fixedLength); // ibAtchDBFile
        BinaryPrimitives.WriteUInt16LittleEndian(span[86..], fixedLength); // ibChangePassword
        BinaryPrimitives.WriteUInt32LittleEndian(span[90..], (uint)token.Length); // cbSSPILong
        token.CopyTo(span[fixedLength..]);
        return payload;
    }
}

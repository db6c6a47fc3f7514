using System.Data.Common;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// MARS: SQL Server 2005 and later grant it when PRELOGIN asks ([MS-TDS] 2.2.6.5, B_MARS), and the connection then
/// carries its sessions over SMP ([MC-SMP]): a second command runs while a reader is still open. Microsoft.Data.SqlClient
/// and the older System.Data.SqlClient (whose managed SNI has its own SMP code) ask for MARS; tsql sends B_MARS 0 even
/// with "mars = yes", and tedious, jTDS and pymssql have no MARS.
/// </summary>
public sealed class MarsTests
{
    [Fact]
    public async Task SqlClient_runs_a_command_while_a_reader_is_open()
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];
        await using var connection = await TestFleet.OpenAsync(instance, extra: "Pooling=false;MultipleActiveResultSets=true");

        await RunsACommandWhileAReaderIsOpenAsync(connection, instance);
    }

    [Fact]
    public async Task System_Data_SqlClient_runs_a_command_while_a_reader_is_open()
    {
        await using var fleet = TestFleet.StartOne("2019");
        var instance = fleet["sql"];
        // The older client knows Encrypt=true/false only; true with TrustServerCertificate is TLS without validation.
        var connectionString = $"Server=127.0.0.1,{instance.Port};User ID={TestFleet.Login};Password={TestFleet.Password};" +
            "Encrypt=true;TrustServerCertificate=true;Pooling=false;MultipleActiveResultSets=true";
        // Obsolete for applications; here it is a second, independent MARS implementation.
#pragma warning disable CS0618
        await using var connection = new System.Data.SqlClient.SqlConnection(connectionString);
#pragma warning restore CS0618
        await connection.OpenAsync();

        await RunsACommandWhileAReaderIsOpenAsync(connection, instance);
    }

    static async Task RunsACommandWhileAReaderIsOpenAsync(DbConnection connection, SimulatedInstance instance)
    {
        await using var databases = connection.CreateCommand();
        databases.CommandText = "SELECT name FROM sys.databases ORDER BY database_id";
        await using var current = connection.CreateCommand();
        current.CommandText = "SELECT DB_NAME()";

        await using var reader = await databases.ExecuteReaderAsync();
        Assert.True(await reader.ReadAsync());
        var first = reader.GetString(0);
        var inBetween = await current.ExecuteScalarAsync();
        var rest = new List<string>();
        while (await reader.ReadAsync()) rest.Add(reader.GetString(0));

        Assert.Equal(("master", "master"), (first, inBetween));
        Assert.Equal(["tempdb", "model", "msdb"], rest);
        Assert.True(instance.Transcript.TextsOf(TranscriptKinds.MarsSession).Count() >= 2, string.Join("\n", instance.Transcript.Entries));
    }
}

using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// Each result type the simulator puts on the wire, read back by SqlClient with SQL Server's type name, the CLR type
/// SqlClient maps it to, and the value.
/// </summary>
public sealed class WireTypeTests
{
    private static readonly DateTimeOffset StartedAt =
        new DateTimeOffset(2026, 11, 1, 7, 30, 15, TimeSpan.FromHours(2)).AddTicks(1234567);

    public static TheoryData<string, string, object?> Expressions => new()
    {
        { "CAST(N'héllo' AS nvarchar(20))", "nvarchar", "héllo" },
        { "CAST(2147483647 AS int)", "int", 2147483647 },
        { "CAST(NULL AS int)", "int", null },
        { "CAST(9000000000 AS bigint)", "bigint", 9_000_000_000L },
        { "CAST(-32768 AS smallint)", "smallint", (short)-32768 },
        { "CAST(255 AS tinyint)", "tinyint", (byte)255 },
        { "CAST(1 AS bit)", "bit", true },
        { "CAST(NULL AS bit)", "bit", null },
        { "CAST('2026-03-04 05:06:07.123' AS datetime)", "datetime", new DateTime(2026, 3, 4, 5, 6, 7, 123) },
        { "CAST('2026-03-04 05:06:07.1234567' AS datetime2)", "datetime2", new DateTime(2026, 3, 4, 5, 6, 7).AddTicks(1234567) },
        { "CAST('2026-03-04 05:06:07.25' AS datetime2(2))", "datetime2", new DateTime(2026, 3, 4, 5, 6, 7, 250) },
        { "CAST('12345.6789' AS decimal(10,4))", "decimal", 12345.6789m },
        { "CAST('-0.5' AS decimal(5,2))", "decimal", -0.50m },
        { "CAST('123456789012345678901234.5' AS decimal(38,1))", "decimal", 123456789012345678901234.5m },
        { "last_startup_time", "datetimeoffset", StartedAt },
        { "process_id", "int", 4242 },
    };

    [Theory]
    [MemberData(nameof(Expressions))]
    public async Task Value_reads_back_with_its_sql_type_and_clr_value(string expression, string typeName, object? expected)
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.LastStartupTime = StartedAt);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand(
            $"SELECT {expression} AS v FROM sys.dm_server_services WHERE process_id = 4242", connection);
        await using var reader = await command.ExecuteReaderAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Equal(typeName, reader.GetDataTypeName(0));
        if (expected is null)
        {
            Assert.True(reader.IsDBNull(0));
        }
        else
        {
            Assert.Equal(expected.GetType(), reader.GetFieldType(0));
            Assert.Equal(expected, reader.GetValue(0));
        }

        Assert.False(await reader.ReadAsync());
    }

    [Fact]
    public async Task Datetimeoffset_keeps_its_offset_and_all_seven_fraction_digits()
    {
        await using var fleet = TestFleet.StartOne("2019", i => i.LastStartupTime = StartedAt);
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand(
            "SELECT last_startup_time FROM sys.dm_server_services WHERE process_id = 4242", connection);

        var value = Assert.IsType<DateTimeOffset>(await command.ExecuteScalarAsync());

        Assert.Equal(TimeSpan.FromHours(2), value.Offset);
        Assert.Equal(StartedAt.DateTime, value.DateTime);
    }

    [Fact]
    public async Task Not_null_int_column_and_nullable_int_column_are_both_read_as_int()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand(
            "SELECT process_id, startup_type FROM sys.dm_server_services WHERE process_id = 4242", connection);
        await using var reader = await command.ExecuteReaderAsync();
        var schema = await reader.GetColumnSchemaAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Equal(4242, reader.GetInt32(0));
        Assert.Equal(2, reader.GetInt32(1));
        Assert.False(schema[0].AllowDBNull);
        Assert.True(schema[1].AllowDBNull);
    }
}

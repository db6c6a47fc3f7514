using Dapper;
using IfiDashboard.Simulator.Tds;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>Dapper with parameters sends sp_executesql RPCs; the simulator must decode them as SQL Server does.</summary>
public sealed class SpExecuteSqlTests
{
    private const string ColumnQuery =
        "SELECT name FROM sys.all_columns WHERE object_id = OBJECT_ID(@o) AND name = @n";

    [Fact]
    public async Task Parameterised_dapper_query_arrives_as_sp_executesql_and_filters_by_its_values()
    {
        await using var fleet = TestFleet.StartOne();
        var instance = fleet["sql"];
        await using var connection = await TestFleet.OpenAsync(instance);

        var names = await connection.QueryAsync<string>(ColumnQuery, new { o = "sys.dm_server_services", n = "process_id" });

        Assert.Equal(["process_id"], names);
        Assert.Contains(ColumnQuery, instance.Transcript.TextsOf(TranscriptKinds.Rpc));
        Assert.DoesNotContain(instance.Transcript.TextsOf(TranscriptKinds.Batch), sql => sql.Contains("all_columns"));
    }

    [Fact]
    public async Task Statement_longer_than_4000_characters_arrives_as_ntext_and_still_answers()
    {
        await using var fleet = TestFleet.StartOne();
        var instance = fleet["sql"];
        await using var connection = await TestFleet.OpenAsync(instance);
        // Over 4000 characters SqlClient types @stmt as NTEXT rather than nvarchar(4000).
        var sql = ColumnQuery + " /* " + new string('x', 4500) + " */";

        var names = await connection.QueryAsync<string>(sql, new { o = "sys.dm_server_services", n = "servicename" });

        Assert.Equal(["servicename"], names);
        Assert.Contains(sql, instance.Transcript.TextsOf(TranscriptKinds.Rpc));
    }

    [Fact]
    public async Task Integer_bit_and_string_parameters_come_back_unchanged()
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        Assert.Equal(-123456789, await Echo(connection, -123456789));
        Assert.Equal(9_000_000_000_000L, await Echo(connection, 9_000_000_000_000L));
        Assert.True(await Echo(connection, true));
        Assert.False(await Echo(connection, false));
        Assert.Equal("Ünïcødé 'quoted'", await Echo(connection, "Ünïcødé 'quoted'"));
    }

    [Fact]
    public async Task Nvarchar_max_parameter_of_ten_thousand_characters_comes_back_whole()
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        var text = string.Concat(Enumerable.Range(0, 1000).Select(i => $"{i % 10}abcdefghi"));

        Assert.Equal(text, await Echo(connection, text));
    }

    [Fact]
    public async Task Date_and_time_parameters_come_back_unchanged()
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        // Dapper sends DateTime as datetime (1/300 s), so pick a time that type holds exactly.
        var local = new DateTime(2026, 3, 4, 5, 6, 7, 10);
        var offset = new DateTimeOffset(2026, 3, 4, 23, 59, 58, TimeSpan.FromHours(-7)).AddTicks(1234567);

        Assert.Equal(local, await Echo(connection, local));
        var back = await Echo(connection, offset);
        Assert.Equal(offset, back);
        Assert.Equal(offset.Offset, back.Offset);
    }

    [Theory]
    [InlineData("12345.6789")]
    [InlineData("-0.5")]
    [InlineData("9999999999999999999.25")]
    public async Task Decimal_parameter_comes_back_unchanged(string text)
    {
        var value = decimal.Parse(text, System.Globalization.CultureInfo.InvariantCulture);
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);

        Assert.Equal(value, await Echo(connection, value));
    }

    [Fact]
    public async Task Guid_parameter_is_decoded_with_its_mixed_endian_layout()
    {
        await using var fleet = TestFleet.StartOne();
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        var id = Guid.Parse("01234567-89ab-cdef-0123-456789abcdef");

        // Selected back, the parameter is uniqueidentifier again: the layout is right both ways.
        var back = await connection.QuerySingleAsync<Guid>("SELECT @p AS v", new { p = id });

        Assert.Equal(id, back);
    }

    private static Task<T> Echo<T>(Microsoft.Data.SqlClient.SqlConnection connection, T value) =>
        connection.QuerySingleAsync<T>("SELECT @p AS v", new { p = value });
}

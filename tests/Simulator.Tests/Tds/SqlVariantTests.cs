using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>SERVERPROPERTY without a CAST is a sql_variant; SqlClient must see that type and the base-typed values.</summary>
public sealed class SqlVariantTests
{
    [Fact]
    public async Task Serverproperty_without_cast_reads_as_sql_variant_holding_a_string_and_an_int()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand(
            "SELECT SERVERPROPERTY('ProductVersion'), SERVERPROPERTY('EngineEdition')", connection);
        await using var reader = await command.ExecuteReaderAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Equal("sql_variant", reader.GetDataTypeName(0));
        Assert.Equal("sql_variant", reader.GetDataTypeName(1));
        Assert.Equal(typeof(object), reader.GetFieldType(0));
        Assert.Equal("15.0.4385.2", Assert.IsType<string>(reader.GetValue(0)));
        Assert.Equal(3, Assert.IsType<int>(reader.GetValue(1)));
    }

    [Fact]
    public async Task Unknown_serverproperty_is_a_null_sql_variant()
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("SELECT SERVERPROPERTY('NoSuchProperty') AS p", connection);
        await using var reader = await command.ExecuteReaderAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Equal("sql_variant", reader.GetDataTypeName(0));
        Assert.True(reader.IsDBNull(0));
    }
}

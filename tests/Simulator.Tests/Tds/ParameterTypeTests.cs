using System.Data;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// A parameter selected back comes as the type its TYPE_INFO declared ([MS-TDS] 2.2.5.4, 2.2.5.5), with its value:
/// a varbinary is varbinary, not the text "System.Byte[]".
/// </summary>
public sealed class ParameterTypeTests
{
    public static TheoryData<SqlDbType, object, string> Types => new()
    {
        { SqlDbType.VarBinary, new byte[] { 1, 2, 254 }, "varbinary" },
        { SqlDbType.Binary, new byte[] { 1, 2, 3 }, "binary" },
        { SqlDbType.VarChar, "abc", "varchar" },
        { SqlDbType.Char, "abc", "char" },
        { SqlDbType.NVarChar, "ifi ✓", "nvarchar" },
        { SqlDbType.NChar, "abc", "nchar" },
        { SqlDbType.Int, 42, "int" },
        { SqlDbType.BigInt, 1L << 40, "bigint" },
        { SqlDbType.SmallInt, (short)-7, "smallint" },
        { SqlDbType.TinyInt, (byte)200, "tinyint" },
        { SqlDbType.Bit, true, "bit" },
        { SqlDbType.Float, 2.5d, "float" },
        { SqlDbType.Real, 1.25f, "real" },
        { SqlDbType.Decimal, 1234.5678m, "decimal" },
        { SqlDbType.Money, 12.3456m, "money" },
        { SqlDbType.SmallMoney, 1.5m, "smallmoney" },
        { SqlDbType.UniqueIdentifier, new Guid("6f9619ff-8b86-d011-b42d-00c04fc964ff"), "uniqueidentifier" },
        { SqlDbType.DateTime, new DateTime(2026, 11, 1, 6, 0, 0), "datetime" },
        { SqlDbType.SmallDateTime, new DateTime(2026, 11, 1, 6, 30, 0), "smalldatetime" },
        { SqlDbType.DateTime2, new DateTime(2026, 11, 1, 6, 0, 0, 123), "datetime2" },
        { SqlDbType.Date, new DateTime(2026, 11, 1), "date" },
        { SqlDbType.Time, new TimeSpan(0, 6, 30, 15, 250), "time" },
        { SqlDbType.DateTimeOffset, new DateTimeOffset(2026, 11, 1, 6, 0, 0, TimeSpan.FromHours(1)), "datetimeoffset" },
    };

    [Theory]
    [MemberData(nameof(Types))]
    public async Task SqlClient_parameter_selected_back_keeps_its_type_and_value(SqlDbType type, object value, string typeName)
    {
        await using var fleet = TestFleet.StartOne("2019");
        await using var connection = await TestFleet.OpenAsync(fleet["sql"]);
        await using var command = new SqlCommand("SELECT @x AS x", connection);
        var parameter = command.Parameters.Add("@x", type);
        parameter.Value = value;
        if (type is SqlDbType.Decimal) (parameter.Precision, parameter.Scale) = (18, 4);
        if (type is SqlDbType.Binary or SqlDbType.Char or SqlDbType.NChar) parameter.Size = 3;

        await using var reader = await command.ExecuteReaderAsync();

        Assert.True(await reader.ReadAsync());
        Assert.Equal(typeName, reader.GetDataTypeName(0));
        var read = reader.GetValue(0);
        Assert.Equal(value, read);
    }

    // jTDS (setBytes, through sp_prepare) and tedious (a VarBinary parameter of sp_executesql) send varbinary; the
    // column comes back as varbinary with the same bytes. (pymssql cannot send bytes as an RPC parameter.)
    [Fact]
    public async Task Jtds_varbinary_parameter_comes_back_as_varbinary()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await ScriptedClient.JtdsAsync(fleet["sql"].Port, "prepare SELECT ? AS b\nbytes b 0102fe\nexecute\n");

        Assert.Empty(result.Errors);
        Assert.Equal("0102fe", result.FirstRow(0)[0]);
        Assert.Equal("varbinary", result.ColumnTypes(0)[0]);
    }

    [Fact]
    public async Task Tedious_varbinary_parameter_comes_back_as_varbinary()
    {
        await using var fleet = TestFleet.StartOne("2019");

        var result = await TediousClient.RunAsync(fleet["sql"].Port, TestFleet.Login, TestFleet.Password, true, "SELECT @b AS b",
            parameters: [new TediousClient.Parameter("b", "VarBinary", "0102fe")]);

        Assert.Null(result.Error);
        Assert.Equal("VarBinary", Assert.Single(result.Columns).Type);
        Assert.Equal("0102fe", result.Rows[0][0].GetString());
    }
}

using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class ServerPropertyTests
{
    [Theory]
    [InlineData("ProductVersion", SqlType.NVarChar, "15.0.4385.2")]
    [InlineData("ProductLevel", SqlType.NVarChar, "RTM")]
    [InlineData("ProductUpdateLevel", SqlType.NVarChar, "CU28")]
    [InlineData("ProductMajorVersion", SqlType.NVarChar, "15")]
    [InlineData("Edition", SqlType.NVarChar, "Developer Edition (64-bit)")]
    [InlineData("EngineEdition", SqlType.Int, 3)]
    [InlineData("MachineName", SqlType.NVarChar, "SQL01")]
    [InlineData("ServerName", SqlType.NVarChar, "SQL01")]
    [InlineData("IsClustered", SqlType.Int, 0)]
    [InlineData("IsHadrEnabled", SqlType.Int, 0)]
    [InlineData("ProcessID", SqlType.Int, 4242)]
    [InlineData("PathSeparator", SqlType.NVarChar, @"\")]
    [InlineData("Collation", SqlType.NVarChar, "SQL_Latin1_General_CP1_CI_AS")]
    public void Serverproperty_without_cast_is_a_sql_variant_with_the_sql_server_base_type(
        string property, SqlType baseType, object expected)
    {
        var result = new EngineHarness("2019").Query($"SELECT SERVERPROPERTY('{property}')");

        var column = Assert.Single(result.Columns);
        Assert.Equal((SqlType.SqlVariant, ""), (column.Type, column.Name));
        var value = Assert.IsType<VariantValue>(Assert.Single(result.Rows)[0]);
        Assert.Equal((baseType, expected), (value.BaseType, value.Value));
    }

    [Theory]
    [InlineData("2019", "InstanceName")]
    [InlineData("2016-SP1", "PathSeparator")]
    [InlineData("2012-SP4", "ProductUpdateLevel")]
    [InlineData("2019", "NoSuchProperty")]
    public void Serverproperty_answers_null_where_sql_server_does(string profile, string property)
    {
        var harness = new EngineHarness(profile);

        var result = harness.Query($"SELECT SERVERPROPERTY(N'{property}') AS value");

        Assert.Equal(SqlType.SqlVariant, result.Column("value").Type);
        Assert.Null(Assert.Single(result.Rows)[0]);
        Assert.Empty(harness.Log);
    }

    [Theory]
    [InlineData("CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128))", SqlType.NVarChar, 128, "15.0.4385.2")]
    [InlineData("CAST(SERVERPROPERTY('ServerName') AS sysname)", SqlType.NVarChar, 128, "SQL01")]
    [InlineData("CAST(SERVERPROPERTY('Edition') AS nvarchar(max))", SqlType.NVarChar, -1, "Developer Edition (64-bit)")]
    [InlineData("CAST(SERVERPROPERTY('ProductLevel') AS varchar(2))", SqlType.NVarChar, 2, "RT")]
    [InlineData("CAST(SERVERPROPERTY('EngineEdition') AS int)", SqlType.Int, 0, 3)]
    [InlineData("CONVERT(int, SERVERPROPERTY('ProcessID'))", SqlType.Int, 0, 4242)]
    [InlineData("CAST(SERVERPROPERTY('ProductMajorVersion') AS int)", SqlType.Int, 0, 15)]
    [InlineData("CAST(SERVERPROPERTY('IsClustered') AS bit)", SqlType.Bit, 0, false)]
    [InlineData("CAST(SERVERPROPERTY('ProcessID') AS bigint)", SqlType.BigInt, 0, 4242L)]
    [InlineData("CAST(SERVERPROPERTY('EngineEdition') AS tinyint)", SqlType.TinyInt, 0, (byte)3)]
    [InlineData("CAST(SERVERPROPERTY('EngineEdition') AS smallint)", SqlType.SmallInt, 0, (short)3)]
    public void Cast_gives_the_declared_type_instead_of_sql_variant(string expression, SqlType type, int maxLength, object expected)
    {
        var result = new EngineHarness("2019").Query($"SELECT {expression} AS v");

        var column = result.Column("v");
        Assert.Equal((type, maxLength), (column.Type, column.MaxLength));
        Assert.Equal(expected, Assert.Single(result.Rows)[0]);
    }

    [Fact]
    public void Identity_query_names_aliased_columns_and_leaves_others_unnamed()
    {
        var result = new EngineHarness("2022").Query("""
            SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(128)) AS ProductVersion,
                   CAST(SERVERPROPERTY('EngineEdition') AS int) AS [EngineEdition],
                   ServerName = @@SERVERNAME,
                   DB_NAME() database_name,
                   CAST(SERVERPROPERTY('InstanceName') AS nvarchar(128))
            """);

        Assert.Equal(["ProductVersion", "EngineEdition", "ServerName", "database_name", ""], result.Columns.Select(c => c.Name));
        Assert.Equal(new object?[] { "16.0.4135.4", 3, "SQL01", "master", null }, Assert.Single(result.Rows));
        Assert.True(result.Columns[4].Nullable);
    }

    [Fact]
    public void Named_instance_reports_machine_backslash_instance()
    {
        var harness = new EngineHarness("2019", i =>
        {
            i.InstanceName = "REPORTING";
            i.MachineName = "DBHOST7";
        });

        var row = Assert.Single(harness.Query(
            "SELECT CAST(SERVERPROPERTY('ServerName') AS sysname), CAST(SERVERPROPERTY('InstanceName') AS sysname), " +
            "CAST(SERVERPROPERTY('MachineName') AS sysname), @@SERVERNAME").Rows);

        Assert.Equal(new object?[] { @"DBHOST7\REPORTING", "REPORTING", "DBHOST7", @"DBHOST7\REPORTING" }, row);
    }

    [Theory]
    [InlineData("Windows", @"\")]
    [InlineData("Linux", "/")]
    public void Path_separator_follows_the_platform(string platform, string expected)
    {
        var value = new EngineHarness("2017", i => i.Platform = platform)
            .Scalar("SELECT CAST(SERVERPROPERTY('PathSeparator') AS nvarchar(1))");

        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("2019", null, "Developer Edition (64-bit)", 3)]
    [InlineData("2019", "Standard Edition (64-bit)", "Standard Edition (64-bit)", 2)]
    [InlineData("2016-SP1", "Express Edition (64-bit)", "Express Edition (64-bit)", 4)]
    [InlineData("azure-sql-db", null, "SQL Azure", 5)]
    [InlineData("managed-instance", null, "SQL Azure", 8)]
    public void Edition_and_engine_edition_follow_the_profile_and_scenario(
        string profile, string? edition, string expectedEdition, int expectedEngineEdition)
    {
        var row = Assert.Single(new EngineHarness(profile, i => i.Edition = edition).Query(
            "SELECT CAST(SERVERPROPERTY('Edition') AS nvarchar(128)), CAST(SERVERPROPERTY('EngineEdition') AS int)").Rows);

        Assert.Equal(new object?[] { expectedEdition, expectedEngineEdition }, row);
    }

    [Theory]
    [InlineData("2019", "Windows", "Microsoft SQL Server 2019 (RTM-CU28) - 15.0.4385.2 (X64)", "on Windows Server")]
    [InlineData("2012-SP3", "Windows", "Microsoft SQL Server 2012 (SP3) - 11.0.6020.0 (X64)", "on Windows Server")]
    [InlineData("2022", "Linux", "Microsoft SQL Server 2022 (RTM-CU14) - 16.0.4135.4 (X64)", "on Linux")]
    [InlineData("azure-sql-db", "Windows", "Microsoft SQL Azure (RTM) - 12.0.2000.8", "Microsoft Corporation")]
    public void Version_banner_names_the_release_build_and_host(string profile, string platform, string start, string host)
    {
        var result = new EngineHarness(profile, i => i.Platform = platform).Query("SELECT @@VERSION");

        var text = Assert.IsType<string>(Assert.Single(result.Rows)[0]);
        Assert.Equal((SqlType.NVarChar, ""), (result.Columns[0].Type, result.Columns[0].Name));
        Assert.StartsWith(start, text);
        Assert.Contains(host, text);
        Assert.Contains('\n', text);
    }
}

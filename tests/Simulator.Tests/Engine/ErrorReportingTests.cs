namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class ErrorReportingTests
{
    [Theory]
    [InlineData("EXEC sp_who2", 2812, "Could not find stored procedure 'sp_who2'.")]
    [InlineData("DECLARE @x int", 102, "Incorrect syntax near 'DECLARE'.")]
    [InlineData("SELECT FROM sys.databases", 102, "Incorrect syntax near 'FROM'.")]
    [InlineData("SELECT name FROM sys.databases GROUP BY name", 102, "Incorrect syntax near 'GROUP'.")]
    [InlineData("SELECT name FROM sys.databases WHERE name = 'a' OR name = 'b'", 102, "Incorrect syntax near 'OR'.")]
    [InlineData("SELECT * FROM sys.trace_events", 208, "Invalid object name 'sys.trace_events'.")]
    [InlineData("SELECT * FROM sys.fn_trace_getinfo(DEFAULT)", 208, "Invalid object name 'sys.fn_trace_getinfo'.")]
    [InlineData("SELECT * FROM dbo.dm_server_services", 208, "Invalid object name 'dbo.dm_server_services'.")]
    [InlineData("SELECT bogus FROM sys.databases", 207, "Invalid column name 'bogus'.")]
    [InlineData("SELECT name FROM sys.databases d WHERE x.name = N'master'", 4104, "The multi-part identifier \"x.name\" could not be bound.")]
    [InlineData("SELECT NEWID()", 195, "'NEWID' is not a recognized built-in function name.")]
    [InlineData("SELECT name FROM sys.databases WHERE name = 'it", 105, "Unclosed quotation mark after the character string 'it'.")]
    [InlineData("SELECT @@NO_SUCH_VARIABLE", 137, "Must declare the scalar variable \"@@NO_SUCH_VARIABLE\".")]
    [InlineData("SELECT CAST(1 AS money)", 243, "Type money is not a defined system type.")]
    public void Unknown_statements_answer_a_sql_server_error_and_log_instance_and_statement(string sql, int number, string text)
    {
        var harness = new EngineHarness("2019");

        var error = Assert.Single(harness.Errors(sql));

        Assert.Equal((number, text), (error.Number, error.Text));
        Assert.True(error.IsError);
        var line = Assert.Single(harness.Log);
        Assert.StartsWith("simulator: sql01 does not know statement: ", line);
        Assert.Contains(sql, line);
    }

    [Fact]
    public void Errors_carry_the_line_of_the_batch_they_occur_on()
    {
        var error = Assert.Single(new EngineHarness().Errors("SET NOCOUNT ON;\n\nSELECT nope FROM sys.databases"));

        Assert.Equal((207, 3), (error.Number, error.LineNumber));
    }

    [Fact]
    public void Compile_errors_stop_the_whole_batch()
    {
        var items = new EngineHarness().Run("SELECT 1 AS a; SELECT nope FROM sys.databases").Items;

        Assert.Equal(207, Assert.IsType<Results.SqlMessage>(Assert.Single(items)).Number);
    }

    [Theory]
    [InlineData(18456, 14, "Login failed for user 'collector'.")]
    [InlineData(229, 14, "The SELECT permission was denied on the object 'dm_server_services', database 'mssqlsystemresource', schema 'sys'.")]
    [InlineData(8189, 14, "You do not have permission to run 'SYS.TRACES'.")]
    [InlineData(208, 16, "Invalid object name 'sys.dm_server_services'.")]
    [InlineData(207, 16, "Invalid column name 'instant_file_initialization_enabled'.")]
    [InlineData(50123, 16, "Simulated fault: error 50123.")]
    public void Error_number_fault_answers_every_batch_with_that_error(int number, int severity, string text)
    {
        var harness = new EngineHarness("2019", i => i.Faults.ErrorNumber = number);

        foreach (var sql in new[] { "SELECT 1", "SET NOCOUNT ON; SELECT name FROM sys.databases" })
        {
            var error = Assert.Single(harness.Errors(sql));
            Assert.Equal((number, (byte)severity, text), (error.Number, error.Severity, error.Text));
        }
    }

    [Fact]
    public void Error_number_fault_300_answers_with_the_297_follow_up()
    {
        var errors = new EngineHarness("2022", i => i.Faults.ErrorNumber = 300).Errors("SELECT 1");

        Assert.Equal([300, 297], errors.Select(e => e.Number));
        Assert.Contains("VIEW SERVER SECURITY STATE", errors[0].Text);
    }
}

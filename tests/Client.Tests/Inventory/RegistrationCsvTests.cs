using IfiDashboard.Client.Pages.Inventory;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Client.Tests.Inventory;

public sealed class RegistrationCsvTests
{
    [Fact]
    public void Columns_in_any_order_quoted_cells_and_empty_cells_read_as_the_form_reads_them()
    {
        var file = RegistrationCsv.Read(
            "CredentialName,name,Host,tags,port,instanceName,encrypt,trustServerCertificate,pollIntervalSeconds,owner\r\n" +
            "fleet,sql-fin-01,sql-fin-01.corp.example,\"finance; pci\",14330,,Strict,yes,600,\"Finance, \"\"core\"\" DBAs\"\r\n" +
            "\r\n" +
            ",sql-rep-01,sql-rep-01.corp.example,,,REPORTING,,,,\r\n");

        Assert.Null(file.Error);
        Assert.Equal([2L, 4L], file.Rows.Select(r => r.Line));
        Assert.All(file.Rows, r => Assert.Empty(r.Errors));
        var fin = file.Rows[0].Registration!;
        Assert.Equal(("sql-fin-01", "sql-fin-01.corp.example", 14330, (string?)null), (fin.Name, fin.Host, fin.Port, fin.InstanceName));
        Assert.Equal(["finance", "pci"], fin.Tags);
        Assert.Equal((EncryptMode.Strict, true, 600, "fleet"), (fin.Encrypt, fin.TrustServerCertificate, fin.PollIntervalSeconds, fin.CredentialName));
        Assert.Equal("Finance, \"core\" DBAs", fin.Owner);
        // Empty cells are empty fields: the form's defaults, integrated security.
        var rep = file.Rows[1].Registration!;
        Assert.Equal(("REPORTING", (int?)null, "Production", EncryptMode.Mandatory), (rep.InstanceName, rep.Port, rep.Environment, rep.Encrypt));
        Assert.Equal((false, InstanceRules.DefaultPollSeconds, (string?)null), (rep.TrustServerCertificate, rep.PollIntervalSeconds, rep.CredentialName));
    }

    [Fact]
    public void Each_row_is_named_by_the_line_it_starts_on_past_blank_lines_and_cells_spanning_lines()
    {
        var file = RegistrationCsv.Read("name,host,owner\r\n\r\nsql-01,db01.corp.example,\"Finance\r\nteam\"\r\n\r\n\r\nsql-02,db02.corp.example,\r\nsql-03,db03.corp.example,");

        Assert.Equal([3L, 7L, 8L], file.Rows.Select(r => r.Line));
    }

    [Fact]
    public void A_row_that_breaks_rules_names_every_field_it_breaks_and_registers_nothing()
    {
        var file = RegistrationCsv.Read("name,host,port,instanceName,trustServerCertificate,environment\r\n" +
                                        "sql\u202Efin,db01.corp.example,1433,REPORTING,maybe,\r\n" +
                                        "ok-01,db02.corp.example,abc,,,\r\n" +
                                        "short,row\r\n");

        Assert.Null(file.Error);
        var (rules, unreadable, short_) = (file.Rows[0], file.Rows[1], file.Rows[2]);
        Assert.Null(rules.Registration);
        Assert.Equal("sql\u202Efin", rules.Name);
        Assert.Equal(["instanceName", "name", "port", "trustServerCertificate"], rules.Errors.Select(e => e.Field).Distinct().Order(StringComparer.Ordinal));
        Assert.Null(unreadable.Registration);
        Assert.Equal(["port"], unreadable.Errors.Select(e => e.Field));
        Assert.Equal("2 cells where line 1 names 6 columns.", Assert.Single(short_.Errors).Message);
    }

    [Fact]
    public void A_rule_broken_with_a_readable_row_is_the_rules_own_message()
    {
        var file = RegistrationCsv.Read("name,host,port,instanceName\r\nsql-fin-01,db01.corp.example,1433,REPORTING\r\n");
        var expected = InstanceRules.Check(new InstanceRegistration { Name = "sql-fin-01", Host = "db01.corp.example", Port = 1433, InstanceName = "REPORTING" });

        Assert.Equal(expected, Assert.Single(file.Rows).Errors);
    }

    [Theory]
    [InlineData("", "The file is empty")]
    [InlineData("name,host,colour\r\nx,y,z\r\n", "Unknown column 'colour' on line 1")]
    [InlineData("name,host,Name\r\nx,y,z\r\n", "The column 'name' is named twice")]
    [InlineData("name,port\r\nx,1433\r\n", "Line 1 names no 'host' column")]
    [InlineData("name,host\r\n", "has no rows")]
    [InlineData("name,host\r\n\"sql-01,db01\r\n", "cannot be read as CSV")]
    public void A_file_that_cannot_be_read_says_why_and_gives_no_rows(string csv, string why)
    {
        var file = RegistrationCsv.Read(csv);

        Assert.Contains(why, file.Error, StringComparison.Ordinal);
        Assert.Empty(file.Rows);
    }

    // Issue 29: one tag separator, ';', as the exports write it; the ',' the page once asked for is refused, not guessed at.
    [Theory]
    [InlineData("\"finance,pci\"")]
    [InlineData("\"finance;pci,emea\"")]
    public void A_comma_in_the_tags_cell_is_refused_naming_the_separator(string cell)
    {
        var file = RegistrationCsv.Read($"name,host,tags\r\nsql-fin-01,sql-fin-01.corp.example,{cell}\r\n");

        var error = Assert.Single(file.Rows.Single().Errors);
        Assert.Equal("tags", error.Field);
        Assert.Contains("Separate tags with ';'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void More_rows_than_one_import_takes_are_refused_as_a_whole()
    {
        var csv = "name,host\r\n" + string.Concat(Enumerable.Range(0, RegistrationCsv.MaxRows + 1).Select(i => $"sql-{i},sql-{i}.corp.example\r\n"));

        var file = RegistrationCsv.Read(csv);

        Assert.Contains("More than 20,000 rows", file.Error, StringComparison.Ordinal);
        Assert.Empty(file.Rows);
    }
}

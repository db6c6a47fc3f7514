using IfiDashboard.Collector.Credentials;

namespace IfiDashboard.Collector.Tests.Credentials;

[Trait("Tier", "Fast")]
public sealed class HostAllowListTests
{
    public static TheoryData<string, string, bool> Cases => new()
    {
        // Exact names: case-insensitive, one trailing dot is the same name, nothing is resolved.
        { "sql01.corp.local", "sql01.corp.local", true },
        { "sql01.corp.local", "SQL01.Corp.Local", true },
        { "sql01.corp.local", "sql01.corp.local.", true },
        { "sql01.corp.local.", "sql01.corp.local", true },
        { "sql01.corp.local", "sql01", false },
        { "sql01", "sql01.corp.local", false },
        { "sql01.corp.local", "sql01.corp.local.evil.com", false },
        { "sql01.corp.local", "xsql01.corp.local", false },
        { "127.0.0.1", "localhost", false },
        { "localhost", "127.0.0.1", false },
        // A leading '*' label is exactly one label of that domain.
        { "*.prod.bank.local", "sql1.prod.bank.local", true },
        { "*.prod.bank.local", "SQL1.PROD.BANK.LOCAL.", true },
        { "*.prod.bank.local", "prod.bank.local", false },
        { "*.prod.bank.local", "a.b.prod.bank.local", false },
        { "*.prod.bank.local", "sql-prod.bank.local", false },
        { "*.prod.bank.local", "sqlprod.bank.local", false },
        { "*.prod.bank.local", "sql1.prod.bank.local.evil.com", false },
        { "*.prod", "sql-prod.evil.com", false },
        { "*.prod", "sql.prod", true },
        // A '*' ending a label is one or more characters of that label only.
        { "sql-*", "sql-01", true },
        { "sql-*", "SQL-01", true },
        { "sql-*", "sql-", false },
        { "sql-*", "mysql-01", false },
        { "sql-*", "sql-01.evil.com", false },
        { "sql-*.prod.bank.local", "sql-7.prod.bank.local", true },
        { "sql-*.prod.bank.local", "sql-7.evil.prod.bank.local", false },
        // IPv4: exact addresses and CIDR edges, literals only.
        { "10.20.0.0/16", "10.20.0.0", true },
        { "10.20.0.0/16", "10.20.255.255", true },
        { "10.20.0.0/16", "10.19.255.255", false },
        { "10.20.0.0/16", "10.21.0.0", false },
        { "10.20.0.0/16", "sql01.10.20.0.0", false },
        { "10.20.30.40/32", "10.20.30.40", true },
        { "10.20.30.40/32", "10.20.30.41", false },
        { "0.0.0.0/0", "203.0.113.9", true },
        { "0.0.0.0/0", "sql01.corp.local", false },
        { "10.20.0.0/16", "::ffff:10.20.1.1", true },
        { "127.0.0.1", "127.0.0.1", true },
        { "127.0.0.1", "127.0.0.2", false },
        // Forms a resolver reads as IPv4 but that are not canonical literals match nothing.
        { "127.0.0.0/8", "127.1", false },
        { "127.0.0.0/8", "0x7f.0.0.1", false },
        { "127.0.0.0/8", "2130706433", false },
        { "127.0.0.0/8", "127.000.000.001", false },
        // IPv6: CIDR edges, brackets, no zone, no cross-family match.
        { "fd00:10::/32", "fd00:10::1", true },
        { "fd00:10::/32", "fd00:10:ffff:ffff:ffff:ffff:ffff:ffff", true },
        { "fd00:10::/32", "fd00:11::", false },
        { "fd00:10::/32", "fd00:f::ffff", false },
        { "fd00:10::/32", "[fd00:10::5]", true },
        { "fd00:10::/32", "fd00:10::5%eth0", false },
        { "::1", "::1", true },
        { "::1", "0:0:0:0:0:0:0:1", true },
        { "::/0", "10.0.0.1", false },
        { "0.0.0.0/0", "::1", false },
        // Whatever the list says, a host that is not a plain name never matches.
        { "sql01.corp.local", "sql01.corp.local,1433", false },
        { "sql01.corp.local", "sql01.corp.local\\INST", false },
        { "sql01.corp.local", "tcp:sql01.corp.local", false },
        { "sql01.corp.local", "", false },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Entry_matches_only_the_hosts_it_names(string entry, string host, bool expected) =>
        Assert.Equal(expected, HostAllowList.Parse([entry]).Matches(host, HostAllowList.DefaultPort));

    /// <summary>Port null: a named instance registered without a port, whose port SQL Browser tells only when connecting.</summary>
    public static TheoryData<string, string, int?, bool> PortCases => new()
    {
        // Without a port: the default port and SQL Browser's answer only, never another port of an allowed host.
        { "sql01.corp.local", "sql01.corp.local", 1433, true },
        { "sql01.corp.local", "sql01.corp.local", null, true },
        { "sql01.corp.local", "sql01.corp.local", 1434, false },
        { "sql01.corp.local", "sql01.corp.local", 51433, false },
        { "10.20.0.0/16", "10.20.1.1", 14330, false },
        { "fd00::5", "fd00::5", 1433, true },
        { "fd00::5", "fd00::5", 1500, false },
        // With a port or a range: exactly those, and never SQL Browser's answer, which is not known before connecting.
        { "sql-*.bank.local:1433", "sql-7.bank.local", 1433, true },
        { "sql-*.bank.local:1433", "sql-7.bank.local", 1434, false },
        { "sql-*.bank.local:1433", "sql-7.bank.local", null, false },
        { "127.0.0.1:1433", "127.0.0.1", 1433, true },
        { "127.0.0.1:1433", "127.0.0.2", 1433, false },
        { "127.0.0.1:51433", "127.0.0.1", 51433, true },
        { "127.0.0.1:51433", "127.0.0.1", 1433, false },
        { "10.20.0.0/16:1433-1434", "10.20.5.5", 1433, true },
        { "10.20.0.0/16:1433-1434", "10.20.5.5", 1434, true },
        { "10.20.0.0/16:1433-1434", "10.20.5.5", 1432, false },
        { "10.20.0.0/16:1433-1434", "10.20.5.5", 1435, false },
        { "10.20.0.0/16:1433-1434", "10.21.5.5", 1433, false },
        { "[::1]:1433", "::1", 1433, true },
        { "[::1]:1433", "[::1]", 1433, true },
        { "[::1]:1433", "::1", 1434, false },
        { "[::1]", "::1", 1433, true },
        { "[::1]", "::1", 1434, false },
        { "[fd00:10::/32]:1433-1440", "fd00:10::9", 1440, true },
        { "[fd00:10::/32]:1433-1440", "fd00:10::9", 1441, false },
        { "127.0.0.1:1-65535", "127.0.0.1", 65535, true },
    };

    [Theory]
    [MemberData(nameof(PortCases))]
    public void Entry_with_a_port_allows_that_port_and_without_one_the_default_port(string entry, string host, int? port, bool expected) =>
        Assert.Equal(expected, HostAllowList.Parse([entry]).Matches(host, port));

    [Theory]
    [InlineData(1433, null, 1433)]
    [InlineData(null, null, 1433)]
    [InlineData(null, "", 1433)]
    [InlineData(null, "REPORTING", null)]
    [InlineData(51433, null, 51433)]
    public void The_port_checked_is_the_one_the_client_connects_to(int? registered, string? instanceName, int? expected) =>
        Assert.Equal(expected, HostAllowList.PortOf(registered, instanceName));

    [Fact]
    public void A_host_matches_when_any_entry_matches()
    {
        var list = HostAllowList.Parse(["10.0.0.0/8", "*.prod.bank.local", " sql-* ", ""]);

        Assert.Equal([true, true, true, false],
            new[] { "10.1.2.3", "db1.prod.bank.local", "sql-9", "db1.test.bank.local" }.Select(host => list.Matches(host, 1433)));
        Assert.Equal(["10.0.0.0/8", "*.prod.bank.local", "sql-*"], list.Entries);
    }

    [Fact]
    public void An_empty_list_matches_nothing()
    {
        var list = HostAllowList.Parse([]);

        Assert.True(list.IsEmpty);
        Assert.False(list.Matches("127.0.0.1", HostAllowList.DefaultPort));
    }

    [Theory]
    [InlineData("*")]
    [InlineData("*.*")]
    [InlineData("*sql.prod")]
    [InlineData("s*l.prod")]
    [InlineData("sql.**")]
    [InlineData("10.20.1.0/16")]
    [InlineData("10.20.0.0/33")]
    [InlineData("sql01/16")]
    [InlineData("127.1")]
    [InlineData("sql01,1433")]
    [InlineData("http://sql01")]
    [InlineData("sql01:0")]
    [InlineData("sql01:65536")]
    [InlineData("sql01:1434-1433")]
    [InlineData("sql01:1433-")]
    [InlineData("sql01:")]
    [InlineData("sql01:*")]
    [InlineData("[sql01]:1433")]
    [InlineData("[::1]1433")]
    [InlineData("[::1")]
    [InlineData("10.20.1.0/16:1433")]
    public void Entry_that_is_no_name_wildcard_or_range_is_refused_by_name(string entry)
    {
        var error = Assert.Throws<FormatException>(() => HostAllowList.Parse([entry]));

        Assert.Contains($"'{entry}'", error.Message, StringComparison.Ordinal);
    }
}

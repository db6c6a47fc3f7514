using IfiDashboard.Collector.Tests.Support;
using IfiDashboard.Tests.Support;

namespace IfiDashboard.Collector.Tests.Kerberos;

/// <summary>
/// Integrated security end to end on Linux: real SqlClient in the collector's process gets a ticket from a real MIT
/// KDC through GSSAPI and logs in to the simulator, which accepts it with NegotiateAuthentication and its keytab.
/// Each failure is a login failure that says what to fix.
/// </summary>
public sealed class IntegratedSecurityTests(KerberosFleet fleet) : IClassFixture<KerberosFleet>
{
    [Fact]
    public async Task Collector_with_a_keytab_polls_over_kerberos_as_its_windows_login()
    {
        var result = await fleet.CheckAsync(fleet.KerberosPort, new Dictionary<string, string>
        {
            // As deployed with systemd: GSSAPI gets the ticket from the keytab itself, into a cache of the collector's.
            ["KRB5_CLIENT_KTNAME"] = fleet.CollectorKeytab,
            ["KRB5CCNAME"] = $"FILE:{Path.Combine(fleet.Realm.Directory, "collector-cache")}",
        });

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal(("Ok", ""), result.Connect);
        Assert.Equal("Enabled", result.Ifi);
        // The KDC issued the collector a ticket for the instance's SPN: the login went through Kerberos.
        var issued = File.ReadAllLines(fleet.Realm.LogFile).Where(l => l.Contains("ISSUE", StringComparison.Ordinal));
        Assert.Contains(issued, l => l.Contains($"collector@{KerberosRealm.Realm} for MSSQLSvc/", StringComparison.Ordinal)
                                     && l.Contains($":{fleet.KerberosPort}@{KerberosRealm.Realm}", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Instance_naming_an_integrated_credential_is_polled_over_kerberos_on_its_allowed_hosts()
    {
        var result = await fleet.CheckAsync(fleet.KerberosPort, new Dictionary<string, string>
        {
            ["KRB5_CLIENT_KTNAME"] = fleet.CollectorKeytab,
            ["KRB5CCNAME"] = $"FILE:{Path.Combine(fleet.Realm.Directory, "credential-cache")}",
            ["Credentials__domain__IntegratedSecurity"] = "true",
            ["Credentials__domain__AllowedHosts__0"] = LoopbackPorts.AllowListEntry,
        }, credential: "domain");

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal("Enabled", result.Ifi);
    }

    [Fact]
    public async Task Collector_polls_with_a_ticket_cache_kept_by_kinit()
    {
        var cache = await fleet.Realm.TicketCacheAsync(KerberosFleet.CollectorPrincipal, fleet.CollectorKeytab);

        var result = await fleet.CheckAsync(fleet.KerberosPort, new Dictionary<string, string> { ["KRB5CCNAME"] = cache });

        Assert.True(result.ExitCode == 0, result.ToString());
        Assert.Equal("Enabled", result.Ifi);
    }

    [Fact]
    public async Task Principal_without_a_login_on_the_instance_gets_login_failed_naming_its_windows_account()
    {
        var keytab = fleet.Realm.Keytab("intruder");
        await fleet.Realm.AddPrincipalAsync("intruder", keytab);

        var result = await fleet.CheckAsync(fleet.KerberosPort, new Dictionary<string, string> { ["KRB5_CLIENT_KTNAME"] = keytab,
            ["KRB5CCNAME"] = $"FILE:{Path.Combine(fleet.Realm.Directory, "intruder-cache")}" });

        Assert.Equal(("LoginFailed", @"Login failed for user 'IFI\intruder'."), result.Connect);
        Assert.Contains(@"CREATE LOGIN [IFI\intruder] FROM WINDOWS", result.Advice, StringComparison.Ordinal);
        Assert.Equal(1, result.ExitCode);
    }

    [Fact]
    public async Task Instance_without_an_spn_is_a_login_failure_naming_the_spn_to_register()
    {
        var cache = await fleet.Realm.TicketCacheAsync(KerberosFleet.CollectorPrincipal, fleet.CollectorKeytab);

        var result = await fleet.CheckAsync(fleet.NoSpnPort, new Dictionary<string, string> { ["KRB5CCNAME"] = cache });

        var (outcome, message) = result.Connect;
        Assert.Equal("LoginFailed", outcome);
        Assert.Contains("not found in Kerberos database", message, StringComparison.Ordinal);
        Assert.Contains($"setspn -S MSSQLSvc/", message, StringComparison.Ordinal);
        Assert.Contains($":{fleet.NoSpnPort}", message, StringComparison.Ordinal);
        Assert.Contains("Integrated security failed on the collector's machine", result.Advice, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Spn_registered_to_another_account_is_refused_by_the_instance_with_advice_to_move_it()
    {
        var cache = await fleet.Realm.TicketCacheAsync(KerberosFleet.CollectorPrincipal, fleet.CollectorKeytab);

        var result = await fleet.CheckAsync(fleet.OtherAccountPort, new Dictionary<string, string> { ["KRB5CCNAME"] = cache });

        Assert.Equal("LoginFailed", result.Connect.Outcome);
        Assert.Contains("untrusted domain", result.Connect.Message, StringComparison.Ordinal);
        Assert.Contains("setspn -Q", result.Advice, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Expired_ticket_is_a_login_failure_saying_to_renew_it()
    {
        var cache = await fleet.Realm.TicketCacheAsync(KerberosFleet.CollectorPrincipal, fleet.CollectorKeytab, lifetime: "3s");
        using var expiry = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        while (await fleet.Realm.HasValidTicketAsync(cache))
            await Task.Delay(TimeSpan.FromMilliseconds(100), expiry.Token);
        // Kerberos times are whole seconds: klist calls a ticket expired from its end time on, GSSAPI only after it.
        var expiredAt = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        while (DateTimeOffset.UtcNow.ToUnixTimeSeconds() <= expiredAt)
            await Task.Delay(TimeSpan.FromMilliseconds(100), expiry.Token);

        var result = await fleet.CheckAsync(fleet.KerberosPort, new Dictionary<string, string> { ["KRB5CCNAME"] = cache });

        var (outcome, message) = result.Connect;
        Assert.Equal("LoginFailed", outcome);
        Assert.Contains("Ticket expired", message, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("KRB5_CLIENT_KTNAME", message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Collector_without_any_ticket_is_a_login_failure_saying_how_to_give_it_one()
    {
        var result = await fleet.CheckAsync(fleet.KerberosPort, new Dictionary<string, string>
        {
            ["KRB5CCNAME"] = $"FILE:{Path.Combine(fleet.Realm.Directory, "no-such-cache")}",
        });

        var (outcome, message) = result.Connect;
        Assert.Equal("LoginFailed", outcome);
        Assert.Contains("has no Kerberos ticket", message, StringComparison.Ordinal);
        Assert.Contains("KRB5_CLIENT_KTNAME", message, StringComparison.Ordinal);
    }
}

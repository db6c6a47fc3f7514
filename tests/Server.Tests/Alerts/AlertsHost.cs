using IfiDashboard.Shared.Security;
using IfiDashboard.Collector.Scheduling;
using IfiDashboard.Server.Alerts;
using IfiDashboard.Server.Alerts.Delivery;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store.Alerts;
using IfiDashboard.Store.Inventory;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Tests.Support;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Server.Tests.Alerts;

/// <summary>
/// The real server over a test bed's store and fleet, with alerts on, the test bed's clock, and every log line
/// captured. The background collector is off: tests poll with <see cref="PollAllAsync"/>.
/// </summary>
internal sealed class AlertsHost(AlertsTestBed bed, IReadOnlyDictionary<string, string?> settings) : WebApplicationFactory<Program>
{
    public const string DashboardUrl = "https://ifi.example.test/";
    public const string ProdTeam = "prod-dba@example.test";
    public const string Everyone = "dba-all@example.test";
    public const string From = "ifi-alerts@example.test";

    public CapturedLogs Logs { get; } = new();

    public static Dictionary<string, string?> DefaultSettings(SmtpSink smtp) => new()
    {
        ["Alerts:Enabled"] = "true",
        ["Alerts:DashboardUrl"] = DashboardUrl,
        ["Alerts:Routes:0:Environment"] = "Production",
        ["Alerts:Routes:0:To:0"] = ProdTeam,
        ["Alerts:DefaultTo:0"] = Everyone,
        ["Alerts:RenotifyInterval"] = "04:00:00",
        ["Alerts:Smtp:Host"] = "127.0.0.1",
        ["Alerts:Smtp:Port"] = smtp.Port.ToString(System.Globalization.CultureInfo.InvariantCulture),
        ["Alerts:Smtp:Security"] = "None",
        ["Alerts:Smtp:From"] = From,
        // Alerts:Smtp:TimeoutSeconds stays the product's 30 s: a mail these tests wait for must not fail on a relay slow
        // to answer under load, since its retry is due on the test clock, which only the test moves.
    };

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        builder.UseSetting("Store:Provider", bed.Database.Provider);
        builder.UseSetting("Store:ConnectionString", bed.Database.ConnectionString);
        builder.UseSetting("Collector:Enabled", "false");
        // Four-eyes is on by default; these tests grant waivers that count at once, as before it was, unless one sets it.
        builder.UseSetting("Auth:WaiversNeedApproval", "false");
        builder.UseSetting("Collector:Name", "alert-tests");
        // No instance here is meant to time out. With the product's limits a failover test's poll was once cut off
        // under the test command's load on a CI runner (suspected): the cluster move was never seen, so never mailed.
        foreach (var (key, value) in PatientCollector.Settings) builder.UseSetting(key, value);
        builder.UseSetting("Credentials:fleet:UserId", AlertsTestBed.Login);
        builder.UseSetting("Credentials:fleet:Password", AlertsTestBed.Password);
        // The simulated fleet listens on loopback with a self-signed certificate.
        builder.UseSetting("Credentials:fleet:AllowedHosts:0", LoopbackPorts.AllowListEntry);
        builder.UseSetting("Credentials:fleet:AllowTrustServerCertificate", "true");
        builder.UseSetting("Logging:LogLevel:Default", "Trace");
        foreach (var (key, value) in settings) builder.UseSetting(key, value);
        builder.ConfigureTestServices(TestSignIn.Register);
        builder.ConfigureLogging(logging => logging.AddProvider(Logs));
        builder.ConfigureTestServices(services => services.AddSingleton<TimeProvider>(bed.Clock));
    }

    /// <summary>Clients sign in as an Administrator, who may change alert settings.</summary>
    protected override void ConfigureClient(HttpClient client)
    {
        base.ConfigureClient(client);
        TestSignIn.AsRole(client, DashboardRoles.Administrator);
    }

    public Task RegisterFleetAsync() => SimulatedFleetRegistration.RegisterAsync(Services, bed.Fleet, 60);

    public long IdOf(string name) => SimulatedFleetRegistration.IdOf(Services, name);

    /// <summary>Moves the clock past the poll interval and polls every instance once, then reassesses the fleet.</summary>
    public async Task PollAndAssessAsync()
    {
        bed.Clock.Advance(TimeSpan.FromMinutes(2));
        await Services.GetRequiredService<CollectorService>().PollDueOnceAsync(CancellationToken.None);
        await Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    public Task<int> EvaluateAsync() => Services.GetRequiredService<AlertEvaluation>().EvaluateNowAsync(CancellationToken.None);

    public Task<int> DeliverAsync() => Services.GetRequiredService<OutboxDelivery>().DeliverDueAsync(CancellationToken.None);

    public void WakeDelivery() => Services.GetRequiredService<OutboxDelivery>().Wake();

    public Task<IReadOnlyList<OutboxEntry>> OutboxAsync() => Services.GetRequiredService<OutboxStore>().RecentAsync(100, CancellationToken.None);

    /// <summary>
    /// Waits, boundedly, until <paramref name="smtp"/> has at least <paramref name="count"/> messages. A wait that runs
    /// out fails with what the server did meanwhile (the outbox, the instances' last polls, the timeline's failovers,
    /// its warnings), since a mail that never comes otherwise leaves nothing to read but its count.
    /// </summary>
    public async Task<IReadOnlyList<ReceivedMail>> WaitForMailAsync(SmtpSink smtp, int count, int seconds)
    {
        var messages = await Eventually.WaitAsync(smtp.Messages, m => m.Count >= count, seconds);
        if (messages.Count < count)
            Assert.Fail($"Expected {count} message(s) within {seconds} s, got {messages.Count}.\n{await ExplainAsync()}");
        return messages;
    }

    async Task<string> ExplainAsync()
    {
        var text = new System.Text.StringBuilder();
        text.AppendLine($"Test clock: {bed.Clock.GetUtcNow():O}");
        text.AppendLine("Outbox (newest first):");
        foreach (var e in await OutboxAsync())
            text.AppendLine($"  #{e.Id} {e.Kind} {e.InstanceName} {e.Status} attempts={e.Attempts} created={e.CreatedAt:O} next={e.NextAttemptAt:O} error={e.LastError}");
        text.AppendLine("Assessment:");
        var fleet = await Services.GetRequiredService<FleetAssessments>().GetAsync(CancellationToken.None);
        text.AppendLine($"  computed {fleet.ComputedAt:O}");
        foreach (var i in fleet.Instances)
            text.AppendLine($"  {i.Registration.Name}: polled {i.State.LastPollAt:O} ({i.State.LastOutcome} {i.State.LastMessage}), IFI {i.State.IfiState}, {i.Compliance.Status}");
        await using (var connection = await Services.GetRequiredService<IfiDashboard.Store.IDbConnectionFactory>().OpenAsync(CancellationToken.None))
        {
            text.AppendLine("Failover cursor: " + await Dapper.SqlMapper.ExecuteScalarAsync<long?>(connection,
                "SELECT last_change_id FROM alert_failover_cursor WHERE id = 1;"));
            foreach (var (id, instance, field, change, at) in await Dapper.SqlMapper.QueryAsync<(long, long, string, string, DateTimeOffset)>(connection,
                         "SELECT id, instance_id, field, COALESCE(old_value, '') || ' -> ' || COALESCE(new_value, ''), changed_at FROM ifi_changes ORDER BY id;"))
                text.AppendLine($"  change #{id} instance {instance} {field}: {change} at {at:O}");
        }
        text.AppendLine("Warnings and alert lines the server logged:");
        foreach (var line in Logs.All.Split('\n').Where(l => l.StartsWith("Warning", StringComparison.Ordinal)
                     || l.StartsWith("Error", StringComparison.Ordinal) || l.StartsWith("Critical", StringComparison.Ordinal)
                     || l.Contains(".Alerts.", StringComparison.Ordinal) && l.StartsWith("Information", StringComparison.Ordinal)))
            text.AppendLine("  " + line);
        return text.ToString();
    }

    /// <summary>Evaluates and delivers once more in the foreground: whatever the rules still want to send is now sent.</summary>
    public async Task SettleAsync()
    {
        await EvaluateAsync();
        await DeliverAsync();
    }
}

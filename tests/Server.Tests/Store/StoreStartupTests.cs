using System.Net;
using System.Net.Sockets;
using IfiDashboard.Store;
using IfiDashboard.Server.Tests.Alerts;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Npgsql;

namespace IfiDashboard.Server.Tests.Store;

public sealed class StoreStartupTests
{
    const string Password = "st0re-Password-never-logged";

    /// <summary>A loopback port with nothing listening: connections to it are refused at once.</summary>
    static int ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    static PostgresConnectionFactory UnreachablePostgres() => new(Options.Create(new StoreOptions
    {
        Provider = StoreOptions.PostgresProvider,
        ConnectionString = $"Host=127.0.0.1;Port={ClosedPort()};Username=ifi;Password={Password};Timeout=2",
    }));

    static Task<Exception?> OpenAsync(PostgresConnectionFactory connections, TimeSpan wait, CapturedLogs logs) =>
        Record.ExceptionAsync(() => StoreStartup.OpenWhenReachableAsync(connections, wait, logs.CreateLogger("store"), CancellationToken.None));

    [Fact]
    public async Task An_unreachable_postgres_is_retried_until_the_wait_ends_then_its_error_is_thrown_without_the_password()
    {
        await using var connections = UnreachablePostgres();
        var logs = new CapturedLogs();

        // Long enough that a first refused connect slowed by a loaded machine still leaves room for a retry.
        var error = await OpenAsync(connections, TimeSpan.FromSeconds(3), logs);

        Assert.IsAssignableFrom<NpgsqlException>(error);
        Assert.Contains("not reachable yet", logs.All, StringComparison.Ordinal); // it did wait and say so
        Assert.DoesNotContain(Password, logs.All, StringComparison.Ordinal);
        Assert.DoesNotContain(Password, error!.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task With_no_wait_the_first_failure_is_thrown_at_once()
    {
        await using var connections = UnreachablePostgres();
        var logs = new CapturedLogs();

        var error = await OpenAsync(connections, TimeSpan.Zero, logs);

        Assert.IsAssignableFrom<NpgsqlException>(error);
        Assert.Empty(logs.All);
    }
}

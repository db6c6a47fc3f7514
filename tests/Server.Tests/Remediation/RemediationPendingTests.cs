using Dapper;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Store.Facts;
using IfiDashboard.Store;
using IfiDashboard.Store.Remediation;
using IfiDashboard.Server.Tests.Functional;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Remediation;

/// <summary>
/// "Remediation pending" for an engine that starts as LocalSystem: the pack's step is the move to the virtual account
/// (the script grants nothing before it), so IFI turning on while the engine still runs as LocalSystem confirms
/// nothing; the poll after the move does. Polled by the real collector from the simulator, on either store.
/// </summary>
[Trait(Store.TestDatabase.PostgresPassTrait, Store.TestDatabase.PostgresPassValue)]
public sealed class RemediationPendingTests : IAsyncLifetime
{
    readonly DashboardHost _host = new(
        new ScenarioInstance { Name = "sql-system", Profile = "2019", IfiEnabled = false, ServiceAccount = "LocalSystem", MachineName = "SQLHOST7" });

    public async Task InitializeAsync()
    {
        await _host.RegisterFleetAsync();
        await PollAndAssessAsync();
    }

    public async Task DisposeAsync() => await _host.DisposeAsync();

    async Task PollAndAssessAsync()
    {
        await using (var connection = await _host.Services.GetRequiredService<IDbConnectionFactory>().OpenAsync(CancellationToken.None))
            await connection.ExecuteAsync("UPDATE instances SET next_poll_at = NULL WHERE retired_at IS NULL;");
        await _host.PollAllAsync();
        await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None);
    }

    async Task<RemediationPending?> PendingAsync(long id) =>
        (await _host.Services.GetRequiredService<FleetAssessments>().RecomputeAsync(CancellationToken.None)).Find(id)!.RemediationPending;

    [Fact]
    public async Task A_pack_for_a_LocalSystem_engine_stays_pending_until_a_poll_shows_the_engine_moved_with_the_right()
    {
        var id = _host.IdOf("sql-system");
        var assessment = (await _host.Services.GetRequiredService<FleetAssessments>().GetAsync(CancellationToken.None)).Find(id)!;
        var pack = RemediationPack.Build([assessment], $"instance {id}", DateTimeOffset.UtcNow, "test");
        var packs = _host.Services.GetRequiredService<RemediationPacks>();
        var packId = await packs.RecordAsync(pack, CancellationToken.None);

        _host.Fleet.Update("sql-system", i => i.IfiEnabled = true);
        await PollAndAssessAsync();
        var onLocalSystem = await PendingAsync(id);
        var statusOnLocalSystem = (await packs.StatusAsync(packId, CancellationToken.None))!.Instances.Single().Status;

        _host.Fleet.Update("sql-system", i => i.ServiceAccount = @"NT Service\MSSQLSERVER");
        await PollAndAssessAsync();
        var moved = await PendingAsync(id);
        var statusMoved = (await packs.StatusAsync(packId, CancellationToken.None))!.Instances.Single().Status;

        Assert.True(Assert.Single(pack.Instances).Change.MovesOffLocalSystem);
        Assert.Equal(packId, onLocalSystem?.PackId);
        Assert.Equal("pending", statusOnLocalSystem);
        Assert.Null(moved);
        Assert.Equal("confirmed", statusMoved);
    }
}

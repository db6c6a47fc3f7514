using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Tests.Inventory;

/// <summary>When two registrations reach one server, and when a shared machine name does not make them one.</summary>
public sealed class SameServerTests
{
    static InventoryRecord Polled(long id, string host, string? serverName, int? port = null, string? instance = null) => new(
        new InstanceRegistration { Id = id, Name = $"instance-{id}", Host = host, Port = port, InstanceName = instance },
        null, default, default, 1, serverName);

    [Theory]
    [InlineData("10.0.0.7", "SQL07", "sql07.emea.bank", null, "an address polled, then its DNS name")]
    [InlineData("sql07.emea.bank", null, "SQL07.EMEA.BANK", null, "the same DNS name in capitals")]
    [InlineData("sql07.emea.bank", null, "sql07", null, "a DNS name, then the bare machine name")]
    [InlineData("10.0.0.7", @"SQL07\REPORTING", "sql07.emea.bank", "REPORTING", "a named instance by address, then by name")]
    public void Is_the_same_server(string first, string? polledAs, string second, string? instance, string why)
    {
        var existing = Polled(1, first, polledAs, instance is null ? 1433 : null, instance is null ? null : "REPORTING");
        var registration = new InstanceRegistration { Name = "new", Host = second, InstanceName = instance };

        Assert.True(InventoryFields.SameServer([existing], registration) is not null, why);
        Assert.Equal([2L], InventoryFields.Duplicates([existing.Registration, registration with { Id = 2 }],
            id => id == 1 ? polledAs : null).Keys);
    }

    [Theory]
    [InlineData("sql07.emea.bank", "SQL07", "sql07.apac.bank", null, "one machine name in two domains")]
    [InlineData("10.0.0.7", "SQL07", "sql07.emea.bank", 1500, "another port of that machine")]
    [InlineData("10.0.0.7", null, "sql07.emea.bank", null, "an address never polled")]
    public void Is_another_server(string first, string? polledAs, string second, int? port, string why)
    {
        var existing = Polled(1, first, polledAs);
        var registration = new InstanceRegistration { Name = "new", Host = second, Port = port };

        Assert.True(InventoryFields.SameServer([existing], registration) is null, why);
        Assert.Empty(InventoryFields.Duplicates([existing.Registration, registration with { Id = 2 }], id => id == 1 ? polledAs : null));
    }
}

using IfiDashboard.Collector.Standalone;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;

namespace IfiDashboard.Collector.Tests.Standalone;

/// <summary>One outbox belongs to one running collector: a second one on the same folder refuses to start.</summary>
[Trait("Tier", "Fast")]
public sealed class OutboxOwnershipTests : IDisposable
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-outbox-owner-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    SnapshotOutbox Open() => new(new OutboxOptions { Directory = _directory }, NullLogger<SnapshotOutbox>.Instance);

    [Fact]
    public void Second_collector_on_the_same_outbox_is_refused_with_the_settings_to_change()
    {
        using var first = Open();

        var refused = Assert.Throws<OutboxUnavailableException>(Open);

        Assert.Contains($"Another running collector holds the outbox {_directory}", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Collector:Name", refused.Message, StringComparison.Ordinal);
        Assert.Contains("Collector:Outbox:Directory", refused.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', refused.Message);
    }

    [Fact]
    public void Outbox_is_free_again_once_its_collector_has_stopped()
    {
        Open().Dispose();

        using var next = Open();

        Assert.Empty(next.Pending());
    }

    [Fact]
    public void Default_outbox_is_the_collectors_own_and_the_same_after_a_restart()
    {
        static string Resolve(string name)
        {
            var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
            {
                ["Collector:Name"] = name,
                ["Collector:ServerUrl"] = "http://127.0.0.1:1/",
                ["Collector:ApiKey"] = "unused",
            }).Build();
            using var services = new ServiceCollection().AddIfiStandaloneCollector(configuration).BuildServiceProvider();
            return services.GetRequiredService<OutboxOptions>().Directory;
        }

        var east = Resolve("collector-east");
        var west = Resolve("collector-west");

        Assert.NotEqual(east, west);
        Assert.Equal(east, Resolve("collector-east"));
        Assert.True(Path.IsPathRooted(east), east);
        Assert.False(east.StartsWith(Environment.CurrentDirectory + Path.DirectorySeparatorChar, StringComparison.Ordinal), east);
        Assert.Contains("collector-east", east, StringComparison.Ordinal);
    }

    [Fact]
    public void Collector_name_that_is_no_file_name_still_gets_one_folder()
    {
        var path = OutboxOptions.DefaultDirectory("../../etc/evil name");

        var root = Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "IfiDashboard", "collectors");
        Assert.Equal(root, Path.GetDirectoryName(Path.GetDirectoryName(path)));
    }
}

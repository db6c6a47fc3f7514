using IfiDashboard.Collector;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Hosting;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Hosting;

/// <summary>
/// What an <c>AddIfi*</c> call needs from the others is checked as the host is built: a call left out stops the start
/// with the one line the server prints, naming it. And registering a module reads the configuration, never adds to it.
/// </summary>
public sealed class CompositionPrerequisiteTests : IDisposable
{
    static readonly string[] Settings =
        ["--environment=Production", "--Store:Provider=Sqlite", "--Store:ConnectionString=Data Source=never-opened.db"];

    readonly string _directory = Directory.CreateTempSubdirectory("ifi-composition-").FullName;

    [Fact]
    public async Task Program_cs_calls_build_a_host()
    {
        await using var app = Build(CompositionOrderTests.Calls);

        Assert.NotNull(app.Services);
    }

    [Theory]
    [InlineData("AddIfiStore", "AddIfiCompliance")]
    [InlineData("AddIfiCompliance", "AddIfiAlerts")]
    [InlineData("AddIfiEmbeddedCollector", "AddIfiIngestion")]
    [InlineData("AddIfiEditing", "AddIfiApi")]
    [InlineData("AddIfiAlerts", "AddIfiMonthlyEvidenceMail")]
    [InlineData("AddIfiIngestion", "AddIfiApi")]
    [InlineData("AddIfiCollectorAssignments", "AddIfiApi")]
    [InlineData("AddIfiApi", "AddIfiDashboardUi")]
    [InlineData("AddIfiSignIn", "AddIfiDashboardUi")]
    public void A_call_left_out_stops_the_start_naming_it(string leftOut, string needer)
    {
        var refused = Record.Exception(() => Build(CompositionOrderTests.Calls.Where(c => c.Name != leftOut)));

        var advice = ServerStartupAdvice.For(Assert.IsAssignableFrom<Exception>(refused));
        Assert.NotNull(advice);
        Assert.Contains($"{needer} needs {leftOut}: call {leftOut} too", advice);
        Assert.DoesNotContain("\n", advice);
    }

    [Fact]
    public void A_call_made_twice_stops_the_start()
    {
        var refused = Record.Exception(() => Build(CompositionOrderTests.Calls.Append(CompositionOrderTests.Calls.Single(c => c.Name == "AddIfiAlerts"))));

        Assert.Equal("AddIfiAlerts is called 2 times: call it once.", ServerStartupAdvice.For(Assert.IsAssignableFrom<Exception>(refused)));
    }

    [Fact]
    public void Registering_the_collector_leaves_the_configuration_as_it_was()
    {
        var configuration = new ConfigurationManager();
        configuration["Collector:SecretsFile"] = SecretsFile();
        var sources = configuration.Sources.Count;

        new ServiceCollection().AddIfiCollector(configuration);

        Assert.Equal(sources, configuration.Sources.Count);
    }

    [Fact]
    public void The_server_host_reads_the_secrets_file_before_any_module_registers()
    {
        var builder = ServerHost.CreateBuilder([.. Settings, "--Collector:SecretsFile=" + SecretsFile()]);

        Assert.Equal("from-the-file", builder.Configuration["Credentials:fleet:UserId"]);
    }

    static WebApplication Build(IEnumerable<(string Name, Action<WebApplicationBuilder> Add)> calls)
    {
        var builder = ServerHost.CreateBuilder(Settings);
        foreach (var call in calls) call.Add(builder);
        return builder.Build();
    }

    string SecretsFile()
    {
        var path = Path.Combine(_directory, "secrets.json");
        File.WriteAllText(path, """{ "Credentials": { "fleet": { "UserId": "from-the-file", "Password": "not-a-real-one" } } }""");
        return path;
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);
}

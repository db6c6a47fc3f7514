using System.Globalization;
using System.Text.RegularExpressions;
using IfiDashboard.Collector.Hosting;
using IfiDashboard.Server.Alerts;
using IfiDashboard.Server.Api;
using IfiDashboard.Server.Collection;
using IfiDashboard.Server.Compliance;
using IfiDashboard.Server.Dashboard;
using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Editing;
using IfiDashboard.Server.Health;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Hosting;
using IfiDashboard.Server.Ingestion;
using IfiDashboard.Server.Observability;
using IfiDashboard.Server.Reports;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Store;
using IfiDashboard.Store.Retention;
using IfiDashboard.Server.Tests.Deployment;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Tests.Hosting;

/// <summary>
/// Program.cs's <c>AddIfi*</c> calls (with <c>--demo</c>, so the demo's registrations count too) give the same container
/// in any order. All 18! orders are too many; this set breaks every rule of the form "X before Y" between two calls:
/// each call moved first breaks every rule that it come after another, each call moved last every rule that it come
/// before one. The reversed order and seeded shuffles add mixed orders.
/// </summary>
public sealed class CompositionOrderTests
{
    /// <summary>The same settings for every container; nothing is opened while services register.</summary>
    static readonly string[] Settings =
        ["--environment=Production", "--Store:Provider=Sqlite", "--Store:ConnectionString=Data Source=never-opened.db"];

    /// <summary>Program.cs's calls, in its order.</summary>
    internal static readonly (string Name, Action<WebApplicationBuilder> Add)[] Calls =
    [
        ("AddIfiServiceHosting", b => b.AddIfiServiceHosting()),
        ("AddIfiStore", b => b.Services.AddIfiStore(b.Configuration)),
        ("AddIfiRetention", b => b.Services.AddIfiRetention(b.Configuration)),
        ("DemoMode.Configure", DemoMode.Configure),
        ("AddIfiEmbeddedCollector", b => b.Services.AddIfiEmbeddedCollector(b.Configuration)),
        ("AddIfiCompliance", b => b.Services.AddIfiCompliance(b.Configuration)),
        ("AddIfiEditing", b => b.Services.AddIfiEditing()),
        ("AddIfiAlerts", b => b.Services.AddIfiAlerts(b.Configuration)),
        ("AddIfiMonthlyEvidenceMail", b => b.Services.AddIfiMonthlyEvidenceMail(b.Configuration)),
        ("AddIfiIngestion", b => b.Services.AddIfiIngestion(b.Configuration)),
        ("AddIfiCollectorAssignments", b => b.Services.AddIfiCollectorAssignments(b.Configuration)),
        ("AddIfiApi", b => b.Services.AddIfiApi(b.Configuration)),
        ("AddIfiDashboardUi", b => b.Services.AddIfiDashboardUi()),
        ("AddIfiSecurityHeaders", b => b.Services.AddIfiSecurityHeaders(warnWhenAnyHostIsAllowed: false)),
        ("AddIfiDataProtection", b => b.Services.AddIfiDataProtection(b.Configuration)),
        ("AddIfiHealth", b => b.Services.AddIfiHealth()),
        ("AddIfiSignIn", b => b.AddIfiSignIn(demo: true)),
        ("AddIfiTelemetry", b => b.AddIfiTelemetry()),
    ];

    public static TheoryData<string> Orders()
    {
        var orders = new TheoryData<string> { "reversed" };
        foreach (var (name, _) in Calls)
        {
            orders.Add("first " + name);
            orders.Add("last " + name);
        }
        for (var seed = 1; seed <= 5; seed++) orders.Add("shuffled " + seed);
        return orders;
    }

    static readonly Lazy<IReadOnlyDictionary<string, string>> AsWritten = new(() => Container(Enumerable.Range(0, Calls.Length).ToList()));

    [Theory]
    [MemberData(nameof(Orders))]
    public void Calls_in_another_order_give_the_same_container(string order)
    {
        var differences = Differences(AsWritten.Value, Container(Order(order)));

        Assert.True(differences.Count == 0, $"In the order '{order}' the container differs from Program.cs's:\n" + string.Join("\n", differences));
    }

    [Fact]
    public void The_calls_compared_are_those_Program_cs_makes()
    {
        var program = File.ReadAllText(Path.Combine(RepositoryRoot.Path, "src", "Server", "Program.cs"));

        var made = Regex.Matches(program, @"\b(AddIfi\w+|DemoMode\.Configure)\(").Select(m => m.Groups[1].Value).ToList();

        Assert.Equal(Calls.Select(c => c.Name), made);
    }

    [Fact]
    public void A_container_is_read_as_a_whole()
    {
        var container = AsWritten.Value;

        // The comparison sees the registrations that matter, not an empty or partial list.
        Assert.True(container.Count > 300, $"Only {container.Count} service types were read.");
        Assert.Contains("resolves: Singleton factory IfiDashboard.Server.Collection.EmbeddedCollectorExtensions", container["IfiDashboard.Shared.Snapshots.ISnapshotSink"]);
        Assert.Contains("DemoFleetHost", container[typeof(IHostedService).FullName!]);
    }

    static List<int> Order(string order)
    {
        var written = Enumerable.Range(0, Calls.Length).ToList();
        var words = order.Split(' ');
        switch (words[0])
        {
            case "reversed":
                written.Reverse();
                return written;
            case "shuffled":
                var shuffled = written.ToArray();
                new Random(int.Parse(words[1], CultureInfo.InvariantCulture)).Shuffle(shuffled);
                return [.. shuffled];
            default:
                var moved = Array.FindIndex(Calls, c => c.Name == words[1]);
                written.Remove(moved);
                if (words[0] == "first") written.Insert(0, moved);
                else written.Add(moved);
                return written;
        }
    }

    /// <summary>
    /// Each service type's registrations, as they can be compared between two containers: lifetime and implementation
    /// (a type, an instance's type, a factory's method); a list the framework applies in order (startup filters) in
    /// its order, every other list as a set, and for a type resolved alone also which registration it resolves to
    /// (the last).
    /// </summary>
    static IReadOnlyDictionary<string, string> Container(IReadOnlyList<int> order)
    {
        var builder = ServerHost.CreateBuilder(Settings);
        foreach (var call in order) Calls[call].Add(builder);
        return builder.Services
            .GroupBy(d => d.ServiceType.FullName + (d.IsKeyedService ? $" [{d.ServiceKey}]" : ""))
            .ToDictionary(g => g.Key, g => Registrations(g.First().ServiceType, g.Select(Describe).ToList()));
    }

    static string Registrations(Type service, List<string> registrations)
    {
        if (service == typeof(IStartupFilter)) return "in order: " + string.Join(", ", registrations);
        var set = "set: " + string.Join(", ", registrations.Order(StringComparer.Ordinal));
        return ResolvedAsList(service) ? set : set + "; resolves: " + registrations[^1];
    }

    /// <summary>Types the framework or the server only ever resolves as a list, each entry on its own.</summary>
    static bool ResolvedAsList(Type service) =>
        service == typeof(IHostedService) || service == typeof(IAuthorizationHandler) || service.Namespace == typeof(IfiComposition).Namespace
        || service.IsGenericType && service.GetGenericTypeDefinition() is var open
        && (open == typeof(IConfigureOptions<>) || open == typeof(IPostConfigureOptions<>) || open == typeof(IValidateOptions<>)
            || open == typeof(IOptionsChangeTokenSource<>));

    static string Describe(ServiceDescriptor d)
    {
        var (type, instance, factory) = d.IsKeyedService
            ? (d.KeyedImplementationType, d.KeyedImplementationInstance, (Delegate?)d.KeyedImplementationFactory)
            : (d.ImplementationType, d.ImplementationInstance, d.ImplementationFactory);
        return $"{d.Lifetime} " + (type is not null ? type.FullName
            : factory is not null ? "factory " + MethodOf(factory)
            : InstanceOf(instance!));
    }

    static string MethodOf(Delegate method) => $"{method.Method.DeclaringType?.FullName}.{method.Method.Name}";

    /// <summary>
    /// An instance by its type; options set up by a delegate (Configure, Validate) by that delegate too; the server's
    /// own composition records by what they say.
    /// </summary>
    static string InstanceOf(object instance)
    {
        var type = instance.GetType();
        var text = type.FullName!;
        if (type.Namespace == typeof(IfiComposition).Namespace) text += $" {instance}";
        foreach (var property in type.GetProperties().Where(p => typeof(Delegate).IsAssignableFrom(p.PropertyType) && p.GetIndexParameters().Length == 0))
            if (property.GetValue(instance) is Delegate action) text += $" {property.Name}={MethodOf(action)}";
        return text;
    }

    static List<string> Differences(IReadOnlyDictionary<string, string> expected, IReadOnlyDictionary<string, string> actual) =>
    [
        .. expected.Keys.Union(actual.Keys).Order(StringComparer.Ordinal)
            .Where(key => expected.GetValueOrDefault(key) != actual.GetValueOrDefault(key))
            .Select(key => $"{key}\n  as written: {expected.GetValueOrDefault(key) ?? "(none)"}\n  this order: {actual.GetValueOrDefault(key) ?? "(none)"}"),
    ];
}

using IfiDashboard.Simulator.Engine;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Simulator.Tests.Engine;

/// <summary>Runs T-SQL against a fresh engine for one simulated instance and keeps the log lines it wrote.</summary>
internal sealed class EngineHarness
{
    private readonly List<string> _log = [];
    private readonly QueryEngine _engine;

    /// <summary>The engine's clock: SYSDATETIMEOFFSET() and friends read this instant.</summary>
    public static readonly DateTimeOffset Now = new(2026, 11, 22, 3, 15, 0, TimeSpan.Zero);

    public EngineHarness(string profile = "2019", Action<ScenarioInstance>? configure = null, params string[] permissions)
    {
        _engine = new QueryEngine(_log.Add, new FakeTimeProvider(Now));
        Instance = new ScenarioInstance { Name = "sql01", Profile = profile };
        configure?.Invoke(Instance);
        var login = new ScenarioLogin
        {
            Name = "collector",
            Password = "secret",
            Permissions = permissions.Length == 0 ? ["sysadmin"] : [.. permissions],
        };
        Session = new SessionContext(Instance, VersionProfiles.Get(profile), login, "master");
    }

    public ScenarioInstance Instance { get; }

    public SessionContext Session { get; }

    public IReadOnlyList<string> Log => _log;

    public BatchResult Run(string sql, IReadOnlyDictionary<string, object?>? parameters = null) =>
        _engine.Execute(sql, parameters ?? new Dictionary<string, object?>(), Session);

    /// <summary>The only item of the batch, which must be a result set.</summary>
    public ResultSet Query(string sql, IReadOnlyDictionary<string, object?>? parameters = null)
    {
        var items = Run(sql, parameters).Items;
        var item = Assert.Single(items);
        return Assert.IsType<ResultSet>(item);
    }

    /// <summary>The messages of a batch that must have produced no result set.</summary>
    public IReadOnlyList<SqlMessage> Errors(string sql)
    {
        var items = Run(sql).Items;
        Assert.DoesNotContain(items, i => i is ResultSet);
        return items.OfType<SqlMessage>().ToList();
    }

    public object? Scalar(string sql) => Assert.Single(Query(sql).Rows)[0];
}

internal static class ResultSetExtensions
{
    public static ResultColumn Column(this ResultSet set, string name) => set.Columns.Single(c => c.Name == name);

    public static IReadOnlyList<object?> ColumnValues(this ResultSet set, string name)
    {
        var index = set.Columns.ToList().FindIndex(c => c.Name == name);
        Assert.True(index >= 0, $"no column {name}");
        return set.Rows.Select(r => r[index]).ToList();
    }
}

using System.Security.Cryptography;

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>Collectors made for a run, each with a key of its own, and the server environment that accepts them.</summary>
internal static class CollectorKeys
{
    public static List<(string Name, string Key)> Create(string prefix, int count) =>
        Enumerable.Range(1, count).Select(i => ($"{prefix}-{i}", Convert.ToHexString(RandomNumberGenerator.GetBytes(24)))).ToList();

    /// <summary>The keys go to the server in its environment (<c>Ingestion:ApiKeys:&lt;name&gt;</c>), never on its command line.</summary>
    public static Dictionary<string, string> ServerEnvironment(BenchmarkOptions options, IEnumerable<(string Name, string Key)> collectors)
    {
        var environment = new Dictionary<string, string>(options.ServerEnvironment);
        foreach (var (name, key) in collectors)
            environment[$"Ingestion__ApiKeys__{name}"] = key;
        return environment;
    }
}

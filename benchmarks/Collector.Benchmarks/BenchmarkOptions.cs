using System.Globalization;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>Command-line settings; every flag has a default so the documented command is short.</summary>
internal sealed record BenchmarkOptions
{
    public int Instances { get; init; } = 2000;
    public int Concurrency { get; init; } = 64;
    /// <summary>0: each measured phase polls every instance once. Otherwise each phase polls repeatedly for this long.</summary>
    public double Seconds { get; init; }
    /// <summary>Measured bare/collector pairs, run alternately (B C C B) so drift of the machine hits both.</summary>
    public int Pairs { get; init; } = 2;
    /// <summary>
    /// Instances polled by each loop before measuring; -1 (default) polls the whole fleet once with each. SqlClient is
    /// not precompiled, so tiering its code up takes about a thousand polls; and a steady collector has met every
    /// instance before (SqlClient keeps a pool group per connection string).
    /// </summary>
    public int WarmupPolls { get; init; } = -1;
    /// <summary>"in-process" shares the cores with the collector (worst case); "process" runs the simulator CLI apart.</summary>
    public SimulatorMode Simulator { get; init; } = SimulatorMode.InProcess;
    /// <summary>An extra, unreported-in-the-headline pair with SqlClient diagnostics on: connect vs query time.</summary>
    public bool Breakdown { get; init; }
    public int Seed { get; init; } = 20261101;
    /// <summary>The bare loop passes Dapper parameters as anonymous objects: shows what that idiom costs a fleet.</summary>
    public bool AnonymousParameters { get; init; }

    public static BenchmarkOptions Parse(string[] args)
    {
        var options = new BenchmarkOptions();
        for (var i = 0; i < args.Length; i++)
        {
            var name = args[i];
            string Value() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{name} needs a value.");
            options = name switch
            {
                "--instances" => options with { Instances = PositiveInt(name, Value()) },
                "--concurrency" => options with { Concurrency = PositiveInt(name, Value()) },
                "--seconds" => options with { Seconds = double.Parse(Value(), CultureInfo.InvariantCulture) },
                "--pairs" => options with { Pairs = PositiveInt(name, Value()) },
                "--warmup" => options with { WarmupPolls = int.Parse(Value(), CultureInfo.InvariantCulture) },
                "--simulator" => options with { Simulator = ParseMode(Value()) },
                "--breakdown" => options with { Breakdown = true },
                "--anonymous-params" => options with { AnonymousParameters = true },
                "--seed" => options with { Seed = int.Parse(Value(), CultureInfo.InvariantCulture) },
                _ => throw new ArgumentException($"Unknown option {name}."),
            };
        }
        return options;
    }

    public const string Usage =
        "usage: Collector.Benchmarks [--instances 2000] [--concurrency 64] [--seconds 0] [--pairs 2] [--warmup -1]\n" +
        "                            [--simulator in-process|process] [--breakdown] [--anonymous-params] [--seed N]";

    static int PositiveInt(string name, string value) =>
        int.TryParse(value, CultureInfo.InvariantCulture, out var n) && n > 0 ? n : throw new ArgumentException($"{name} must be a positive integer.");

    static SimulatorMode ParseMode(string value) => value switch
    {
        "in-process" => SimulatorMode.InProcess,
        "process" => SimulatorMode.Process,
        _ => throw new ArgumentException("--simulator is in-process or process."),
    };
}

internal enum SimulatorMode
{
    InProcess,
    Process,
}

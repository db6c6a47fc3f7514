using Xunit.Sdk;

namespace IfiDashboard.Compliance.Tests;

/// <summary>
/// A small property-test harness: generate many cases from consecutive seeds and check each. Seeds are fixed, so a
/// failure names the seed that reproduces it and the run is the same on every machine.
/// </summary>
static class Property
{
    public const int DefaultRuns = 400;

    public static void ForAll<T>(Func<Random, T> generate, Action<T> check, int runs = DefaultRuns, int firstSeed = 1)
    {
        for (var seed = firstSeed; seed < firstSeed + runs; seed++)
        {
            var value = generate(new Random(seed));
            try
            {
                check(value);
            }
            catch (Exception e)
            {
                throw new XunitException($"Property failed for seed {seed}: {value}{Environment.NewLine}{e.Message}");
            }
        }
    }

    public static T Pick<T>(this Random random, params T[] choices) => choices[random.Next(choices.Length)];

    public static long NextLong(this Random random, long minInclusive, long maxExclusive) =>
        random.NextInt64(minInclusive, maxExclusive);
}

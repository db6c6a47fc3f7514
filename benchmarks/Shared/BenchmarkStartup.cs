using System.Globalization;

namespace IfiDashboard.Benchmarks;

internal static class BenchmarkStartup
{
    /// <summary>
    /// Parses the command line, or explains the usage and returns null. Numbers print with a dot whatever the
    /// machine's locale, so the Markdown rows paste into docs/benchmarks.md as they are.
    /// </summary>
    public static T? ParseOrExplain<T>(string[] args, Func<string[], T> parse, string usage) where T : class
    {
        CultureInfo.DefaultThreadCurrentCulture = CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        try
        {
            return parse(args);
        }
        catch (Exception e) when (e is ArgumentException or FormatException)
        {
            Console.Error.WriteLine(e.Message);
            Console.Error.WriteLine(usage);
            return null;
        }
    }
}

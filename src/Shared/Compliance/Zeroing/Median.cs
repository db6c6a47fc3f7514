namespace IfiDashboard.Shared.Compliance.Zeroing;

public static class Median
{
    /// <summary>The middle value; with an even count, the mean of the two middle values. Null for no values.</summary>
    public static double? Of(IEnumerable<double> values)
    {
        var sorted = values.Order().ToArray();
        if (sorted.Length == 0)
            return null;
        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1
            ? sorted[middle]
            // Halving each before adding keeps two huge samples from overflowing to infinity.
            : sorted[middle - 1] / 2 + sorted[middle] / 2;
    }
}

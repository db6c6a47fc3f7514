namespace IfiDashboard.Compliance.Zeroing;

public static class Median
{
    /// <summary>The middle value; with an even count, the mean of the two middle values. Null for no values.</summary>
    public static double? Of(IEnumerable<double> values) => Weighted(values.Select(v => (v, 1.0)));

    /// <summary>
    /// The value below and above which half the weight lies; when a value's weight ends exactly at the half, the mean
    /// of it and the next value (so equal weights give the ordinary median). Values of weight 0 or less are ignored.
    /// Null for no values.
    /// </summary>
    public static double? Weighted(IEnumerable<(double Value, double Weight)> samples)
    {
        var sorted = samples.Where(s => s.Weight > 0).OrderBy(s => s.Value).ToArray();
        if (sorted.Length == 0)
            return null;
        var half = sorted.Sum(s => s.Weight) / 2;
        var cumulative = 0.0;
        for (var i = 0; i < sorted.Length - 1; i++)
        {
            cumulative += sorted[i].Weight;
            if (cumulative > half)
                return sorted[i].Value;
            if (cumulative == half)
                // Halving each before adding keeps two huge samples from overflowing to infinity.
                return sorted[i].Value / 2 + sorted[i + 1].Value / 2;
        }
        return sorted[^1].Value;
    }
}

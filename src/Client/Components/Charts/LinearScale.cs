namespace IfiDashboard.Client.Components.Charts;

/// <summary>Maps a value range onto a pixel range; a range of one value maps to the middle rather than dividing by zero.</summary>
public readonly record struct LinearScale(double DomainMin, double DomainMax, double RangeMin, double RangeMax)
{
    public double Map(double value) => DomainMax == DomainMin
        ? (RangeMin + RangeMax) / 2
        : RangeMin + (value - DomainMin) * (RangeMax - RangeMin) / (DomainMax - DomainMin);
}

public static class Ticks
{
    /// <summary>
    /// Round tick values from 0 up to at least <paramref name="max"/> (1, 2 or 5 times a power of ten per step), so
    /// axis labels read as "0, 20, 40" and not "0, 17.3, 34.6".
    /// </summary>
    public static IReadOnlyList<double> UpTo(double max, int approximateCount = 5)
    {
        if (max <= 0 || double.IsNaN(max) || double.IsInfinity(max)) return [0, 1];
        var rough = max / approximateCount;
        var power = Math.Pow(10, Math.Floor(Math.Log10(rough)));
        var step = new[] { 1, 2, 5, 10 }.Select(m => m * power).First(s => s >= rough);
        var ticks = new List<double>();
        for (var i = 0; ; i++)
        {
            var tick = i * step;
            ticks.Add(tick);
            if (tick >= max) break;
        }
        return ticks;
    }

    /// <summary>At most <paramref name="count"/> evenly spread indexes of a series, always the first and the last.</summary>
    public static IReadOnlyList<int> Spread(int length, int count)
    {
        if (length <= 0) return [];
        if (length <= count) return Enumerable.Range(0, length).ToList();
        return Enumerable.Range(0, count).Select(i => (int)Math.Round(i * (length - 1) / (double)(count - 1))).Distinct().ToList();
    }
}

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>A report's period: growth events that started in [<see cref="From"/>, <see cref="To"/>).</summary>
public readonly record struct ZeroingWindow(DateTimeOffset From, DateTimeOffset To)
{
    public bool Contains(DateTimeOffset moment) => From <= moment && moment < To;
}

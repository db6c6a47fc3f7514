namespace IfiDashboard.Store.Facts;

/// <summary>
/// Hands out one string object per distinct value. A fleet's database and file names repeat endlessly (every
/// instance has a tempdb with a tempdev, every database's events name the same few files), and what the assessment
/// keeps (file facts, per-database zeroing and restore risk) otherwise holds a private copy of each per row read.
/// The copy read from the store still allocates, but dies young instead of living as long as the assessment.
/// </summary>
internal sealed class SharedStrings
{
    readonly HashSet<string> _values = new(StringComparer.Ordinal);

    public string Share(string value)
    {
        if (_values.TryGetValue(value, out var shared)) return shared;
        _values.Add(value);
        return value;
    }
}

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>
/// LIKE matching with <c>%</c>, <c>_</c> and <c>[set]</c>/<c>[^set]</c>, case-insensitive like the default collation.
/// </summary>
internal static class LikePattern
{
    public static bool IsMatch(string value, string pattern) => Match(value, 0, pattern, 0);

    private static bool Match(string value, int v, string pattern, int p)
    {
        while (p < pattern.Length)
        {
            var c = pattern[p];
            if (c == '%')
            {
                // Try every split point for the rest of the pattern.
                for (var start = v; start <= value.Length; start++)
                {
                    if (Match(value, start, pattern, p + 1))
                    {
                        return true;
                    }
                }

                return false;
            }

            if (v >= value.Length)
            {
                return false;
            }

            if (c == '[' && pattern.IndexOf(']', p + 1) is var close and > 0)
            {
                if (!InSet(value[v], pattern[(p + 1)..close]))
                {
                    return false;
                }

                p = close + 1;
            }
            else if (c == '_' || char.ToUpperInvariant(c) == char.ToUpperInvariant(value[v]))
            {
                p++;
            }
            else
            {
                return false;
            }

            v++;
        }

        return v == value.Length;
    }

    private static bool InSet(char c, string set)
    {
        var negate = set.StartsWith('^');
        if (negate)
        {
            set = set[1..];
        }

        var upper = char.ToUpperInvariant(c);
        var found = false;
        for (var i = 0; i < set.Length && !found; i++)
        {
            if (i + 2 < set.Length && set[i + 1] == '-')
            {
                found = upper >= char.ToUpperInvariant(set[i]) && upper <= char.ToUpperInvariant(set[i + 2]);
                i += 2;
            }
            else
            {
                found = upper == char.ToUpperInvariant(set[i]);
            }
        }

        return found != negate;
    }
}

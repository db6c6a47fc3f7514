using System.Text;
using IfiDashboard.Compliance.Remediation;

namespace IfiDashboard.Server.Tests.Remediation;

/// <summary>
/// Reads a generated script's <c>$Pack</c> back as PowerShell's parser would read its literals (pwsh is not installed
/// here): single-quoted strings with each of the four single quotes PowerShell accepts doubled, <c>@(...)</c> lists,
/// <c>$null</c>. What it cannot read fails the test, so a literal the writer broke cannot pass unnoticed.
/// </summary>
internal static class PowerShellPack
{
    public sealed record Entry(IReadOnlyDictionary<string, object?> Fields)
    {
        public string Text(string name) => (string)Fields[name]!;
        public string? Nullable(string name) => (string?)Fields[name];
        public IReadOnlyList<string> List(string name) => (IReadOnlyList<string>)Fields[name]!;
    }

    public static IReadOnlyList<Entry> Read(string script)
    {
        var start = script.IndexOf("$Pack = @(", StringComparison.Ordinal);
        if (start < 0) throw new FormatException("The script has no $Pack.");
        var reader = new Reader(script, start + "$Pack = @(".Length);
        var entries = new List<Entry>();
        while (true)
        {
            reader.SkipSpaceAndComments();
            if (reader.TryTake(")")) return entries;
            reader.Expect("@{");
            var fields = new Dictionary<string, object?>(StringComparer.Ordinal);
            while (true)
            {
                reader.SkipSpaceAndComments();
                if (reader.TryTake("}")) break;
                var name = reader.Word();
                reader.SkipSpaceAndComments();
                reader.Expect("=");
                reader.SkipSpaceAndComments();
                fields.Add(name, reader.Value());
                reader.SkipSpaceAndComments();
                reader.TryTake(";");
            }
            entries.Add(new Entry(fields));
        }
    }

    /// <summary>The script with every single-quoted literal and comment taken out: what PowerShell would run as code.</summary>
    public static string CodeOutsideLiterals(string script)
    {
        var code = new StringBuilder();
        for (var i = 0; i < script.Length; i++)
        {
            var c = script[i];
            if (c == '#' && (i == 0 || script[i - 1] is '\n' or ' '))
            {
                while (i < script.Length && script[i] != '\n') i++;
                code.Append('\n');
            }
            else if (RemediationScript.IsSingleQuote(c))
            {
                i = new Reader(script, i).SkipLiteral() - 1;
                code.Append("''");
            }
            else code.Append(c);
        }
        return code.ToString();
    }

    sealed class Reader(string text, int position)
    {
        int _at = position;

        public void SkipSpaceAndComments()
        {
            while (_at < text.Length)
            {
                if (char.IsWhiteSpace(text[_at])) _at++;
                else if (text[_at] == '#') while (_at < text.Length && text[_at] != '\n') _at++;
                else return;
            }
        }

        public bool TryTake(string token)
        {
            if (string.CompareOrdinal(text, _at, token, 0, token.Length) != 0) return false;
            _at += token.Length;
            return true;
        }

        public void Expect(string token)
        {
            if (!TryTake(token)) throw new FormatException($"Expected {token} at {_at}: {text.Substring(_at, Math.Min(40, text.Length - _at))}");
        }

        public string Word()
        {
            var start = _at;
            while (_at < text.Length && char.IsAsciiLetterOrDigit(text[_at])) _at++;
            return start == _at ? throw new FormatException($"Expected a name at {_at}.") : text[start.._at];
        }

        public object? Value()
        {
            if (TryTake("$null")) return null;
            if (TryTake("@("))
            {
                var items = new List<string>();
                while (true)
                {
                    SkipSpaceAndComments();
                    if (TryTake(")")) return items;
                    items.Add(Literal());
                    SkipSpaceAndComments();
                    TryTake(",");
                }
            }
            return Literal();
        }

        public string Literal()
        {
            var start = _at;
            var end = SkipLiteral();
            var value = new StringBuilder();
            for (var i = start + 1; i < end - 1; i++)
            {
                value.Append(text[i]);
                if (RemediationScript.IsSingleQuote(text[i])) i++;
            }
            return value.ToString();
        }

        /// <summary>Past the literal starting here: any single quote opens or closes one, two in a row are one character.</summary>
        public int SkipLiteral()
        {
            if (_at >= text.Length || !RemediationScript.IsSingleQuote(text[_at])) throw new FormatException($"Expected a literal at {_at}.");
            _at++;
            while (_at < text.Length)
            {
                if (RemediationScript.IsSingleQuote(text[_at]))
                {
                    if (_at + 1 < text.Length && RemediationScript.IsSingleQuote(text[_at + 1])) { _at += 2; continue; }
                    return ++_at;
                }
                _at++;
            }
            throw new FormatException("A literal is not closed.");
        }
    }
}

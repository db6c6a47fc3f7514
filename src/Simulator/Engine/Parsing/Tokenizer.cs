namespace IfiDashboard.Simulator.Engine.Parsing;

/// <summary>Splits T-SQL text into tokens, dropping whitespace and both comment styles.</summary>
internal static class Tokenizer
{
    private static readonly string[] TwoCharSymbols = ["<>", "!=", "<=", ">=", "!<", "!>"];

    public static List<Token> Tokenize(string sql)
    {
        var tokens = new List<Token>();
        var line = 1;
        var i = 0;
        while (i < sql.Length)
        {
            var c = sql[i];
            if (c == '\n')
            {
                line++;
                i++;
            }
            else if (char.IsWhiteSpace(c))
            {
                i++;
            }
            else if (c == '-' && Peek(sql, i + 1) == '-')
            {
                while (i < sql.Length && sql[i] != '\n')
                {
                    i++;
                }
            }
            else if (c == '/' && Peek(sql, i + 1) == '*')
            {
                i = SkipBlockComment(sql, i, ref line);
            }
            else if ((c is 'N' or 'n') && Peek(sql, i + 1) == '\'')
            {
                tokens.Add(ReadString(sql, i, i + 1, line, isUnicode: true, out i));
            }
            else if (c == '\'')
            {
                tokens.Add(ReadString(sql, i, i, line, isUnicode: false, out i));
            }
            else if (c is '[' or '"')
            {
                tokens.Add(ReadQuotedIdentifier(sql, i, line, out i));
            }
            else if (c == '@')
            {
                var end = i + (Peek(sql, i + 1) == '@' ? 2 : 1);
                end = ScanWord(sql, end);
                tokens.Add(new Token(TokenKind.Variable, sql[i..end], sql[i..end], line, i));
                i = end;
            }
            else if (char.IsAsciiDigit(c))
            {
                var end = i;
                while (end < sql.Length && char.IsAsciiDigit(sql[end]))
                {
                    end++;
                }

                tokens.Add(new Token(TokenKind.Number, sql[i..end], sql[i..end], line, i));
                i = end;
            }
            else if (IsWordStart(c))
            {
                var end = ScanWord(sql, i + 1);
                tokens.Add(new Token(TokenKind.Identifier, sql[i..end], sql[i..end], line, i));
                i = end;
            }
            else
            {
                var two = i + 1 < sql.Length ? sql.Substring(i, 2) : "";
                var text = Array.IndexOf(TwoCharSymbols, two) >= 0 ? two : c.ToString();
                tokens.Add(new Token(TokenKind.Symbol, text, text, line, i));
                i += text.Length;
            }
        }

        tokens.Add(new Token(TokenKind.End, "", "", line, sql.Length));
        return tokens;
    }

    private static char Peek(string sql, int index) => index < sql.Length ? sql[index] : '\0';

    private static bool IsWordStart(char c) => char.IsLetter(c) || c is '_' or '#';

    private static int ScanWord(string sql, int index)
    {
        while (index < sql.Length && (char.IsLetterOrDigit(sql[index]) || sql[index] is '_' or '$' or '#' or '@'))
        {
            index++;
        }

        return index;
    }

    // T-SQL block comments nest, unlike C's.
    private static int SkipBlockComment(string sql, int start, ref int line)
    {
        var depth = 0;
        var i = start;
        while (i < sql.Length)
        {
            if (sql[i] == '/' && Peek(sql, i + 1) == '*')
            {
                depth++;
                i += 2;
            }
            else if (sql[i] == '*' && Peek(sql, i + 1) == '/')
            {
                depth--;
                i += 2;
                if (depth == 0)
                {
                    return i;
                }
            }
            else
            {
                if (sql[i] == '\n')
                {
                    line++;
                }

                i++;
            }
        }

        throw SqlErrors.MissingEndComment(line);
    }

    private static Token ReadString(string sql, int start, int quote, int line, bool isUnicode, out int next)
    {
        var value = new System.Text.StringBuilder();
        var i = quote + 1;
        var startLine = line;
        while (i < sql.Length)
        {
            if (sql[i] == '\'')
            {
                if (Peek(sql, i + 1) == '\'')
                {
                    value.Append('\'');
                    i += 2;
                    continue;
                }

                next = i + 1;
                return new Token(TokenKind.String, sql[start..next], value.ToString(), startLine, start, isUnicode);
            }

            value.Append(sql[i]);
            i++;
        }

        throw SqlErrors.UnclosedQuote(value.ToString(), startLine);
    }

    private static Token ReadQuotedIdentifier(string sql, int start, int line, out int next)
    {
        var close = sql[start] == '[' ? ']' : '"';
        var value = new System.Text.StringBuilder();
        var i = start + 1;
        while (i < sql.Length)
        {
            if (sql[i] == close)
            {
                if (Peek(sql, i + 1) == close)
                {
                    value.Append(close);
                    i += 2;
                    continue;
                }

                next = i + 1;
                return new Token(TokenKind.QuotedIdentifier, sql[start..next], value.ToString(), line, start);
            }

            value.Append(sql[i]);
            i++;
        }

        throw SqlErrors.UnclosedQuote(value.ToString(), line);
    }
}

namespace IfiDashboard.Simulator.Engine.Parsing;

internal sealed partial class Parser
{
    // SET options a client library or collector script sends; each is accepted and otherwise ignored.
    private static readonly HashSet<string> OnOffOptions = new(StringComparer.OrdinalIgnoreCase)
    {
        "NOCOUNT", "ANSI_NULLS", "ANSI_WARNINGS", "ANSI_PADDING", "ANSI_NULL_DFLT_ON", "ANSI_NULL_DFLT_OFF",
        "QUOTED_IDENTIFIER", "ARITHABORT", "ARITHIGNORE", "CONCAT_NULL_YIELDS_NULL", "NUMERIC_ROUNDABORT",
        "XACT_ABORT", "IMPLICIT_TRANSACTIONS", "CURSOR_CLOSE_ON_COMMIT", "FMTONLY", "NOEXEC", "PARSEONLY",
    };

    private static readonly HashSet<string> ValueOptions = new(StringComparer.OrdinalIgnoreCase)
    {
        "LOCK_TIMEOUT", "TEXTSIZE", "ROWCOUNT", "DEADLOCK_PRIORITY", "DATEFORMAT", "DATEFIRST", "LANGUAGE",
    };

    private static readonly string[] IsolationLevels =
        ["READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SNAPSHOT", "SERIALIZABLE"];

    private SetStatement SetOption()
    {
        var line = Expect("SET").Line;
        var option = Current;
        if (option.Kind != TokenKind.Identifier)
        {
            throw SyntaxError();
        }

        _index++;
        if (OnOffOptions.Contains(option.Value))
        {
            // "SET ANSI_NULLS, QUOTED_IDENTIFIER ON" lists several options before one ON/OFF.
            while (AcceptSymbol(","))
            {
                if (!OnOffOptions.Contains(Current.Value))
                {
                    throw SyntaxError();
                }

                _index++;
            }

            if (!Accept("ON") && !Accept("OFF"))
            {
                throw SyntaxError();
            }
        }
        else if (ValueOptions.Contains(option.Value))
        {
            AcceptSymbol("-");
            if (Current.Kind is not (TokenKind.Number or TokenKind.Identifier or TokenKind.String or TokenKind.Variable)
                || Current.IsKeyword("SELECT") || Current.IsKeyword("SET"))
            {
                throw SyntaxError();
            }

            _index++;
        }
        else if (option.IsKeyword("TRANSACTION"))
        {
            Expect("ISOLATION");
            Expect("LEVEL");
            IsolationLevel();
        }
        else
        {
            throw SqlErrors.Syntax(option.Text, option.Line);
        }

        return new SetStatement(option.Value.ToUpperInvariant(), line);
    }

    private void IsolationLevel()
    {
        foreach (var level in IsolationLevels)
        {
            var words = level.Split(' ');
            if (words.Select((w, i) => _tokens[Math.Min(_index + i, _tokens.Count - 1)].IsKeyword(w)).All(x => x))
            {
                _index += words.Length;
                return;
            }
        }

        throw SyntaxError();
    }
}

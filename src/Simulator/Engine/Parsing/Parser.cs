namespace IfiDashboard.Simulator.Engine.Parsing;

/// <summary>
/// Recursive-descent parser for the small T-SQL subset the simulator answers: SET options, single-table SELECTs
/// (a table or a table-valued function) and EXEC of a stored procedure with positional arguments.
/// Statements need no separator, as in T-SQL: a statement ends where its grammar ends and the next one begins.
/// </summary>
internal sealed partial class Parser
{
    // Words that end an expression or clause, so they can never be read as a bare alias.
    private static readonly HashSet<string> Reserved = new(StringComparer.OrdinalIgnoreCase)
    {
        "SELECT", "FROM", "WHERE", "ORDER", "GROUP", "HAVING", "BY", "AND", "OR", "NOT", "AS", "SET", "TOP", "IS",
        "NULL", "LIKE", "IN", "ASC", "DESC", "UNION", "EXCEPT", "INTERSECT", "JOIN", "INNER", "LEFT", "RIGHT",
        "FULL", "OUTER", "CROSS", "ON", "EXEC", "EXECUTE", "DECLARE", "IF", "ELSE", "BEGIN", "END", "WITH", "INSERT",
        "UPDATE", "DELETE", "USE", "CASE", "WHEN", "THEN", "DISTINCT", "INTO", "OPTION", "FOR", "CONVERT", "RETURN",
        "WHILE", "GO", "PRINT", "RAISERROR", "THROW", "TRUNCATE", "CREATE", "ALTER", "DROP", "GRANT", "BETWEEN",
        "DEFAULT", "COMMIT", "ROLLBACK", "TRAN", "TRANSACTION",
    };

    private readonly List<Token> _tokens;
    private int _index;

    private Parser(List<Token> tokens) => _tokens = tokens;

    public static IReadOnlyList<Statement> ParseBatch(string sql) => new Parser(Tokenizer.Tokenize(sql)).Batch();

    private Token Current => _tokens[_index];

    private Token Next => _tokens[Math.Min(_index + 1, _tokens.Count - 1)];

    private List<Statement> Batch()
    {
        var statements = new List<Statement>();
        while (true)
        {
            while (Current.IsSymbol(";"))
            {
                _index++;
            }

            if (Current.Kind == TokenKind.End)
            {
                return statements;
            }

            statements.Add(NextStatement());
        }
    }

    private Statement NextStatement()
    {
        if (Current.IsKeyword("SELECT"))
        {
            return Select();
        }

        if (Current.IsKeyword("SET"))
        {
            return SetOption();
        }

        if (Current.IsKeyword("EXEC") || Current.IsKeyword("EXECUTE"))
        {
            return Exec();
        }

        if (Current.IsKeyword("DBCC"))
        {
            return Dbcc();
        }

        if (Current.IsKeyword("USE"))
        {
            var line = Current.Line;
            _index++;
            return new UseStatement(Name(), line);
        }

        if (Current.IsKeyword("BEGIN") || Current.IsKeyword("COMMIT") || Current.IsKeyword("ROLLBACK"))
        {
            return Transaction();
        }

        if (Current.IsKeyword("IF"))
        {
            return If();
        }

        throw SyntaxError();
    }

    /// <summary><c>IF predicate [AND predicate ...] statement [ELSE statement]</c>: one statement each way, no blocks.</summary>
    private IfStatement If()
    {
        var line = Expect("IF").Line;
        var conditions = new List<Condition> { Predicate() };
        while (Accept("AND"))
        {
            conditions.Add(Predicate());
        }

        var then = NextStatement();
        AcceptSymbol(";");
        var otherwise = Accept("ELSE") ? NextStatement() : null;
        return new IfStatement(conditions, then, otherwise, line);
    }

    private SelectStatement Select()
    {
        var line = Expect("SELECT").Line;
        Expr? top = null;
        if (Accept("TOP"))
        {
            if (AcceptSymbol("("))
            {
                top = Expression();
                ExpectSymbol(")");
            }
            else
            {
                top = Current.Kind is TokenKind.Number or TokenKind.Variable ? Expression() : throw SyntaxError();
            }
        }

        var items = new List<SelectItem> { SelectListItem() };
        while (AcceptSymbol(","))
        {
            items.Add(SelectListItem());
        }

        var from = Accept("FROM") ? Source() : null;
        var where = new List<Condition>();
        if (Accept("WHERE"))
        {
            where.Add(Predicate());
            while (Accept("AND"))
            {
                where.Add(Predicate());
            }
        }

        var orderBy = new List<OrderItem>();
        if (Accept("ORDER"))
        {
            Expect("BY");
            do
            {
                var expr = Expression();
                var descending = Accept("DESC");
                if (!descending)
                {
                    Accept("ASC");
                }

                orderBy.Add(new OrderItem(expr, descending));
            }
            while (AcceptSymbol(","));
        }

        return new SelectStatement(top, items, from, where, orderBy, line);
    }

    private SelectItem SelectListItem()
    {
        if (AcceptSymbol("*"))
        {
            return new SelectItem(null, null);
        }

        if (Current.IsName && Next.IsSymbol(".") && _tokens[Math.Min(_index + 2, _tokens.Count - 1)].IsSymbol("*"))
        {
            var qualifier = Current.Value;
            _index += 3;
            return new SelectItem(null, null, qualifier);
        }

        // The "alias = expression" form that DBA scripts often use.
        if (IsAliasName(Current) && Next.IsSymbol("="))
        {
            var alias = Current.Value;
            _index += 2;
            return new SelectItem(Expression(), alias);
        }

        var expr = Expression();
        return new SelectItem(expr, OptionalAlias(allowString: true));
    }

    private TableSource Source()
    {
        var line = Current.Line;
        // "::fn_trace_gettable(...)" is the SQL Server 2000 spelling of a system table-valued function.
        var legacyPrefix = Current.IsSymbol(":") && Next.IsSymbol(":");
        if (legacyPrefix)
        {
            _index += 2;
        }

        var parts = MultiPartName();
        IReadOnlyList<Expr>? arguments = null;
        if (AcceptSymbol("("))
        {
            arguments = ArgumentList(")");
            ExpectSymbol(")");
        }
        else if (legacyPrefix)
        {
            throw SyntaxError();
        }

        return new TableSource(parts, string.Join('.', parts), OptionalAlias(allowString: false), line, arguments);
    }

    private List<string> MultiPartName()
    {
        var parts = new List<string> { Name() };
        while (AcceptSymbol("."))
        {
            // "master..sys_object" leaves the schema part empty.
            parts.Add(Current.IsSymbol(".") ? "" : Name());
        }

        return parts;
    }

    private ExecStatement Exec()
    {
        var line = Current.Line;
        _index++;
        var parts = MultiPartName();
        var arguments = StartsStatement(Current) ? [] : ArgumentList(";");
        return new ExecStatement(parts, string.Join('.', parts), arguments, line);
    }

    private static bool StartsStatement(Token token) =>
        token.Kind == TokenKind.End || token.IsSymbol(";")
        || token.IsKeyword("SELECT") || token.IsKeyword("SET") || token.IsKeyword("EXEC") || token.IsKeyword("EXECUTE")
        || token.IsKeyword("DBCC") || token.IsKeyword("USE") || token.IsKeyword("BEGIN") || token.IsKeyword("COMMIT")
        || token.IsKeyword("ROLLBACK") || token.IsKeyword("IF") || token.IsKeyword("ELSE");

    /// <summary>
    /// BEGIN TRAN[SACTION] [name], COMMIT [TRAN[SACTION] [name] | WORK], ROLLBACK [TRAN[SACTION] [name] | WORK].
    /// BEGIN alone opens a block, which the simulator does not model.
    /// </summary>
    private TransactionStatement Transaction()
    {
        var line = Current.Line;
        var action = Current.IsKeyword("BEGIN") ? TransactionAction.Begin
            : Current.IsKeyword("COMMIT") ? TransactionAction.Commit : TransactionAction.Rollback;
        _index++;
        var named = Accept("TRAN") || Accept("TRANSACTION");
        if (!named && action == TransactionAction.Begin)
        {
            throw SyntaxError();
        }

        if (!named)
        {
            Accept("WORK");
        }

        if (named && (IsAliasName(Current) || Current.Kind == TokenKind.Variable))
        {
            _index++;
        }

        return new TransactionStatement(action, line);
    }

    private DbccStatement Dbcc()
    {
        var line = Expect("DBCC").Line;
        var command = Name().ToUpperInvariant();
        var arguments = new List<Expr>();
        if (AcceptSymbol("("))
        {
            arguments = ArgumentList(")");
            ExpectSymbol(")");
        }

        var options = new List<string>();
        if (Accept("WITH"))
        {
            do
            {
                options.Add(Name().ToUpperInvariant());
            }
            while (AcceptSymbol(","));
        }

        return new DbccStatement(command, arguments, options, line);
    }

    /// <summary>Comma-separated expressions or DEFAULT, up to (not including) the closing symbol.</summary>
    private List<Expr> ArgumentList(string closing)
    {
        var arguments = new List<Expr>();
        if (Current.IsSymbol(closing))
        {
            return arguments;
        }

        do
        {
            if (Current.IsKeyword("DEFAULT"))
            {
                arguments.Add(new DefaultArgument(Current.Line));
                _index++;
            }
            else
            {
                arguments.Add(Expression());
            }
        }
        while (AcceptSymbol(","));

        return arguments;
    }

    private string? OptionalAlias(bool allowString)
    {
        var explicitAs = Accept("AS");
        if (IsAliasName(Current) || (allowString && Current.Kind == TokenKind.String))
        {
            var alias = Current.Value;
            _index++;
            return alias;
        }

        return explicitAs ? throw SyntaxError() : null;
    }

    private static bool IsAliasName(Token token) =>
        token.Kind == TokenKind.QuotedIdentifier || (token.Kind == TokenKind.Identifier && !Reserved.Contains(token.Value));

    private string Name()
    {
        if (!IsAliasName(Current))
        {
            throw SyntaxError();
        }

        var name = Current.Value;
        _index++;
        return name;
    }

    private Token Expect(string keyword) => Current.IsKeyword(keyword) ? _tokens[_index++] : throw SyntaxError();

    private bool Accept(string keyword)
    {
        if (!Current.IsKeyword(keyword))
        {
            return false;
        }

        _index++;
        return true;
    }

    private void ExpectSymbol(string symbol)
    {
        if (!AcceptSymbol(symbol))
        {
            throw SyntaxError();
        }
    }

    private bool AcceptSymbol(string symbol)
    {
        if (!Current.IsSymbol(symbol))
        {
            return false;
        }

        _index++;
        return true;
    }

    // SQL Server names the offending token; at the end of the batch it names the last one it read.
    private QueryException SyntaxError()
    {
        var token = Current.Kind == TokenKind.End && _index > 0 ? _tokens[_index - 1] : Current;
        return SqlErrors.Syntax(token.Text, token.Line);
    }
}

using System.Globalization;

namespace IfiDashboard.Simulator.Engine.Parsing;

internal sealed partial class Parser
{
    private static readonly string[] ComparisonOperators = ["=", "<>", "!=", "<", ">", "<=", ">="];

    private Condition Predicate()
    {
        var line = Current.Line;
        var operand = Expression();
        if (Accept("IS"))
        {
            var negated = Accept("NOT");
            Expect("NULL");
            return new IsNullCondition(operand, negated, line);
        }

        var not = Accept("NOT");
        if (Accept("LIKE"))
        {
            return new LikeCondition(operand, Expression(), not, line);
        }

        if (Accept("IN"))
        {
            ExpectSymbol("(");
            var values = new List<Expr> { Expression() };
            while (AcceptSymbol(","))
            {
                values.Add(Expression());
            }

            ExpectSymbol(")");
            return new InCondition(operand, values, not, line);
        }

        if (not || Current.Kind != TokenKind.Symbol || !ComparisonOperators.Contains(Current.Text))
        {
            throw SyntaxError();
        }

        var op = Current.Text;
        _index++;
        return new Comparison(operand, op, Expression(), line);
    }

    private Expr Expression()
    {
        var token = Current;
        var line = token.Line;
        switch (token.Kind)
        {
            case TokenKind.String:
                _index++;
                return new StringLiteral(token.Value, token.IsUnicode, line);
            case TokenKind.Number:
                _index++;
                return new NumberLiteral(ParseNumber(token), line);
            case TokenKind.Variable:
                _index++;
                return new VariableRef(token.Value, line);
            case TokenKind.Symbol when token.Text == "-" && Next.Kind == TokenKind.Number:
                _index += 2;
                return new NumberLiteral(-ParseNumber(_tokens[_index - 1]), line);
            case TokenKind.Symbol when token.Text == "(":
                _index++;
                var inner = Expression();
                ExpectSymbol(")");
                return inner;
            case TokenKind.Identifier when token.IsKeyword("NULL"):
                _index++;
                return new NullLiteral(line);
            case TokenKind.Identifier when token.IsKeyword("CAST") && Next.IsSymbol("("):
                return Cast();
            case TokenKind.Identifier when token.IsKeyword("CONVERT") && Next.IsSymbol("("):
                return Convert();
            case TokenKind.Identifier when !Reserved.Contains(token.Value) && Next.IsSymbol("("):
                return Function();
            case TokenKind.Identifier or TokenKind.QuotedIdentifier when IsAliasName(token):
                return Column();
            default:
                throw SyntaxError();
        }
    }

    private long ParseNumber(Token token) =>
        long.TryParse(token.Value, NumberStyles.None, CultureInfo.InvariantCulture, out var value)
            ? value
            : throw SqlErrors.Syntax(token.Text, token.Line);

    private ColumnRef Column()
    {
        var line = Current.Line;
        var parts = new List<string> { Name() };
        while (AcceptSymbol("."))
        {
            parts.Add(Name());
        }

        return new ColumnRef(parts.Count > 1 ? string.Join('.', parts[..^1]) : null, parts[^1], line);
    }

    private FunctionCall Function()
    {
        var name = Current;
        _index += 2;
        if (AcceptSymbol("*"))
        {
            ExpectSymbol(")");
            return new FunctionCall(name.Value.ToUpperInvariant(), [], Star: true, name.Line);
        }

        var arguments = new List<Expr>();
        if (!Current.IsSymbol(")"))
        {
            arguments.Add(Expression());
            while (AcceptSymbol(","))
            {
                arguments.Add(Expression());
            }
        }

        ExpectSymbol(")");
        return new FunctionCall(name.Value.ToUpperInvariant(), arguments, Star: false, name.Line);
    }

    private CastExpr Cast()
    {
        var line = Current.Line;
        _index += 2;
        var operand = Expression();
        Expect("AS");
        var type = TypeName();
        ExpectSymbol(")");
        return new CastExpr(operand, type, line);
    }

    private CastExpr Convert()
    {
        var line = Current.Line;
        _index += 2;
        var type = TypeName();
        ExpectSymbol(",");
        var operand = Expression();
        // The style argument only changes date and money formatting, which no modelled query depends on.
        if (AcceptSymbol(","))
        {
            Expression();
        }

        ExpectSymbol(")");
        return new CastExpr(operand, type, line);
    }

    private TypeSpec TypeName()
    {
        var token = Current;
        var name = Name();
        var arguments = new List<int>();
        if (AcceptSymbol("("))
        {
            do
            {
                if (Accept("MAX"))
                {
                    arguments.Add(-1);
                }
                else if (Current.Kind == TokenKind.Number)
                {
                    arguments.Add((int)ParseNumber(Current));
                    _index++;
                }
                else
                {
                    throw SyntaxError();
                }
            }
            while (AcceptSymbol(","));

            ExpectSymbol(")");
        }

        return TypeNames.Resolve(name, arguments, token.Line);
    }
}

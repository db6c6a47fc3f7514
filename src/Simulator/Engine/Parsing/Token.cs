namespace IfiDashboard.Simulator.Engine.Parsing;

internal enum TokenKind
{
    Identifier,
    QuotedIdentifier,
    String,
    Number,
    Variable,
    Symbol,
    End,
}

/// <summary>
/// One lexical token. <see cref="Text"/> is the source spelling (used in "Incorrect syntax near" messages);
/// <see cref="Value"/> is the unescaped content (identifier without brackets, string without quotes).
/// </summary>
internal sealed record Token(TokenKind Kind, string Text, string Value, int Line, int Position, bool IsUnicode = false)
{
    /// <summary>Keywords are plain identifiers compared case-insensitively; a [bracketed] word is never a keyword.</summary>
    public bool IsKeyword(string keyword) =>
        Kind == TokenKind.Identifier && string.Equals(Value, keyword, StringComparison.OrdinalIgnoreCase);

    public bool IsSymbol(string symbol) => Kind == TokenKind.Symbol && Text == symbol;

    public bool IsName => Kind is TokenKind.Identifier or TokenKind.QuotedIdentifier;
}

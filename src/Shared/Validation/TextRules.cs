using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace IfiDashboard.Shared.Validation;

/// <summary>What any text a person or a CMDB gives the dashboard may contain, on every path (form, API, sync, CLI).</summary>
public static partial class TextRules
{
    /// <summary>Free text fields (environment, owner, query values): at most this many characters.</summary>
    public const int MaxTextLength = 128;

    /// <summary>
    /// Display names (instances, API keys): letters, digits, inner spaces and <c>._-\:@#()+</c>, starting with a letter
    /// or digit, at most 128 characters.
    /// </summary>
    [GeneratedRegex(@"^[A-Za-z0-9](?:[A-Za-z0-9 ._\-\\:@#()+]{0,126}[A-Za-z0-9._\-\\:@#()+])?\z")]
    public static partial Regex DisplayName();

    public const string DisplayNameRule =
        @"1–128 characters: letters, digits, inner spaces and . _ - \ : @ # ( ) +, starting with a letter or digit.";

    /// <summary>
    /// No character that hides or reorders what a reader sees: control characters, format characters (the bidi
    /// overrides and isolates, zero-width spaces and joiners, the byte-order mark), line and paragraph separators,
    /// lone surrogates, private-use and unassigned code points. Such text can make a list or an alert mail show a name
    /// other than the one stored. Pairs of surrogates (emoji, rarer scripts) are characters like any other.
    /// </summary>
    public static bool IsPlainText(string text)
    {
        for (var span = text.AsSpan(); !span.IsEmpty;)
        {
            if (Rune.DecodeFromUtf16(span, out var rune, out var used) != OperationStatus.Done)
                return false; // a lone surrogate
            if (Rune.GetUnicodeCategory(rune) is UnicodeCategory.Control or UnicodeCategory.Format
                or UnicodeCategory.LineSeparator or UnicodeCategory.ParagraphSeparator
                or UnicodeCategory.PrivateUse or UnicodeCategory.OtherNotAssigned)
                return false;
            span = span[used..];
        }
        return true;
    }

    /// <summary>Plain text (<see cref="IsPlainText"/>) of 1 to <paramref name="maxLength"/> characters, not padded.</summary>
    public static bool IsTrimmedPlainText(string text, int maxLength) =>
        text.Length > 0 && text.Length <= maxLength && IsPlainText(text) && text.Trim().Length == text.Length;
}

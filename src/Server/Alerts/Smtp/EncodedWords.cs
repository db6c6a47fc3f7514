using System.Text;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>RFC 2047 encoded-words for header text that is not plain short ASCII (instance names can be anything).</summary>
internal static class EncodedWords
{
    // 45 UTF-8 bytes are 60 base64 characters; with "=?utf-8?B?" and "?=" a word stays within the 75 RFC 2047 allows.
    const int MaxBytesPerWord = 45;
    const int MaxPlainLength = 76;

    /// <summary>The header value as it goes on the wire, folded onto several lines when it needs several words.</summary>
    public static string Encode(string text)
    {
        // Line breaks in a header would start a new header (injection): they become spaces before anything else.
        text = text.ReplaceLineEndings(" ");
        if (text.Length <= MaxPlainLength && text.All(c => c is >= ' ' and <= '~')) return text;

        var words = new List<string>();
        var chunk = new List<byte>();
        Span<byte> runeBytes = stackalloc byte[4];
        foreach (var rune in text.EnumerateRunes())
        {
            var length = rune.EncodeToUtf8(runeBytes);
            if (chunk.Count + length > MaxBytesPerWord)
            {
                words.Add(Word(chunk));
                chunk.Clear();
            }
            chunk.AddRange(runeBytes[..length]);
        }
        if (chunk.Count > 0) words.Add(Word(chunk));
        return string.Join("\r\n ", words);
    }

    static string Word(List<byte> bytes) => "=?utf-8?B?" + Convert.ToBase64String(bytes.ToArray()) + "?=";
}

using System.Text;
using IfiDashboard.Server.Alerts.Smtp;

namespace IfiDashboard.Server.Tests.Alerts;

public sealed class MimeTests
{
    [Fact]
    public void Data_payload_doubles_leading_dots_uses_crlf_and_ends_with_the_dot_line()
    {
        var payload = Encoding.UTF8.GetString(DotStuffing.Payload("a\n.b\n..c\nd"));

        Assert.Equal("a\r\n..b\r\n...c\r\nd\r\n.\r\n", payload);
    }

    [Fact]
    public void Short_ascii_subjects_stay_plain_and_others_become_encoded_words_of_at_most_75_characters()
    {
        Assert.Equal("[IFI] sql01 is NonCompliant", EncodedWords.Encode("[IFI] sql01 is NonCompliant"));

        var encoded = EncodedWords.Encode("[IFI] Größe ✓ " + new string('x', 80));

        var words = encoded.Split("\r\n ");
        Assert.True(words.Length > 1);
        Assert.All(words, w => Assert.True(w.Length <= 75 && w.StartsWith("=?utf-8?B?", StringComparison.Ordinal)));
    }

    [Fact]
    public void A_line_break_in_a_subject_cannot_start_a_new_header()
    {
        var encoded = EncodedWords.Encode("sql01\r\nBcc: victim@example.test");

        Assert.DoesNotContain("\r\nBcc", encoded, StringComparison.Ordinal);
    }
}

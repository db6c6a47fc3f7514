using IfiDashboard.Shared.Validation;

namespace IfiDashboard.Shared.Tests.Validation;

public sealed class TextRulesTests
{
    [Theory]
    [InlineData("Finance – Zürich")]
    [InlineData("数据库团队")]
    [InlineData("on call \U0001F4DF")] // a pair of surrogates is one character
    public void Text_people_write_is_plain(string text) => Assert.True(TextRules.IsPlainText(text));

    [Theory]
    [InlineData("SQLFIN\u202E01", "right-to-left override")]
    [InlineData("a\u2067b", "right-to-left isolate")]
    [InlineData("pci\u200B", "zero-width space")]
    [InlineData("\uFEFFowner", "byte-order mark")]
    [InlineData("line\u2028break", "line separator")]
    [InlineData("tab\there", "control character")]
    [InlineData("tag\U000E0041", "tag character")]
    [InlineData("private\uE000", "private use")]
    public void Text_that_hides_or_reorders_characters_is_not(string text, string why) =>
        Assert.False(TextRules.IsPlainText(text), why);

    // Built in code: an attribute's string cannot carry a lone surrogate (metadata stores it as U+FFFD).
    [Fact]
    public void A_lone_surrogate_is_not_plain_text() => Assert.False(TextRules.IsPlainText("half " + (char)0xD83D + " pair"));
}

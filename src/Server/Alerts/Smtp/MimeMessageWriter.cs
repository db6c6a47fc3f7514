using System.Globalization;
using System.Text;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// Writes a message as RFC 5322 text: headers, then multipart/alternative with the plain-text part first and the
/// HTML part last (the last part is the one clients prefer). Bodies are base64, so no line is ever too long and
/// no character set trouble reaches the relay.
/// </summary>
internal static class MimeMessageWriter
{
    public static string Write(string from, OutgoingMail mail, DateTimeOffset date)
    {
        var boundary = "=_ifi_" + Guid.NewGuid().ToString("N");
        var domain = from[(from.LastIndexOf('@') + 1)..];
        var text = new StringBuilder();
        text.Append("From: ").Append(from).Append("\r\n");
        text.Append("To: ").Append(string.Join(",\r\n ", mail.To)).Append("\r\n");
        text.Append("Subject: ").Append(EncodedWords.Encode(mail.Subject)).Append("\r\n");
        text.Append("Date: ").Append(date.ToUniversalTime().ToString("ddd, dd MMM yyyy HH:mm:ss '+0000'", CultureInfo.InvariantCulture)).Append("\r\n");
        text.Append("Message-ID: <").Append(mail.MessageId).Append('@').Append(domain).Append(">\r\n");
        text.Append("MIME-Version: 1.0\r\n");
        // Tells auto-responders (out-of-office) not to answer an alert.
        text.Append("Auto-Submitted: auto-generated\r\n");
        text.Append("Content-Type: multipart/alternative; boundary=\"").Append(boundary).Append("\"\r\n");
        text.Append("\r\n");
        AppendPart(text, boundary, "text/plain", mail.TextBody);
        AppendPart(text, boundary, "text/html", mail.HtmlBody);
        text.Append("--").Append(boundary).Append("--\r\n");
        return text.ToString();
    }

    static void AppendPart(StringBuilder text, string boundary, string mediaType, string body)
    {
        text.Append("--").Append(boundary).Append("\r\n");
        text.Append("Content-Type: ").Append(mediaType).Append("; charset=utf-8\r\n");
        text.Append("Content-Transfer-Encoding: base64\r\n\r\n");
        var base64 = Convert.ToBase64String(Encoding.UTF8.GetBytes(body.ReplaceLineEndings("\r\n")));
        for (var i = 0; i < base64.Length; i += 76)
            text.Append(base64, i, Math.Min(76, base64.Length - i)).Append("\r\n");
    }
}

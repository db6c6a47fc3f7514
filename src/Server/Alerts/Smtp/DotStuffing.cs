using System.Text;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// The DATA payload (RFC 5321 §4.5.2): every line ends in CRLF, a line starting with "." gets a second ".", so no
/// line of the message can end it early, and the payload closes with the "." line.
/// </summary>
internal static class DotStuffing
{
    public static byte[] Payload(string message)
    {
        var text = new StringBuilder(message.Length + 16);
        foreach (var line in message.ReplaceLineEndings("\n").Split('\n'))
        {
            if (line.StartsWith('.')) text.Append('.');
            text.Append(line).Append("\r\n");
        }
        // The split leaves one empty line after a trailing newline: drop its CRLF so the message is not lengthened.
        if (message.EndsWith('\n')) text.Length -= 2;
        text.Append(".\r\n");
        return Encoding.UTF8.GetBytes(text.ToString());
    }
}

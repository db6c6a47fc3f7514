namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>What the relay offers in its EHLO reply: extension keywords and AUTH mechanisms.</summary>
internal sealed record SmtpCapabilities(IReadOnlySet<string> Keywords, IReadOnlySet<string> AuthMechanisms)
{
    public static readonly SmtpCapabilities None = new(new HashSet<string>(), new HashSet<string>());

    public static SmtpCapabilities Parse(SmtpReply ehlo)
    {
        var keywords = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        var mechanisms = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        // The first line is the server's name; each following line is one extension.
        foreach (var line in ehlo.Lines.Skip(1))
        {
            var parts = line.Split([' ', '='], StringSplitOptions.RemoveEmptyEntries);
            if (parts.Length == 0) continue;
            keywords.Add(parts[0]);
            if (parts[0].Equals("AUTH", StringComparison.OrdinalIgnoreCase))
                mechanisms.UnionWith(parts.Skip(1));
        }
        return new SmtpCapabilities(keywords, mechanisms);
    }
}

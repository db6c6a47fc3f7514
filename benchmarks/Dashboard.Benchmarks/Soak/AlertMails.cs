namespace IfiDashboard.Dashboard.Benchmarks.Soak;

/// <summary>
/// Alert mails as received against the outbox. One outbox row is one message the rules decided (its dedupe key names
/// the kind, the instance, the rule, the episode and the reminder count, and is unique), and its Message-ID is the
/// row's, the same on every attempt: so a Message-ID received twice is an alert sent twice, and a Message-ID without a
/// row is a mail the outbox cannot account for.
/// </summary>
internal sealed record AlertMails(int Received, int Rows, int Sent, int Failed, int Pending, int Duplicates, int WithoutRow, int Distinct)
{
    public static AlertMails Pair(IReadOnlyList<(string MessageId, string DedupeKey, string Status)> rows, IReadOnlyList<string> received)
    {
        var ids = received.Select(LocalPart).ToList();
        var byRow = rows.ToDictionary(r => r.MessageId, StringComparer.Ordinal);
        var perId = ids.GroupBy(id => id, StringComparer.Ordinal).ToList();
        return new AlertMails(
            ids.Count, rows.Count,
            rows.Count(r => r.Status == "Sent"), rows.Count(r => r.Status == "Failed"), rows.Count(r => r.Status == "Pending"),
            perId.Sum(g => g.Count() - 1),
            ids.Count(id => !byRow.ContainsKey(id)),
            perId.Count);
    }

    /// <summary>The server writes <c>&lt;row's message id&gt;@&lt;sender's domain&gt;</c>; the sink keeps the angle brackets.</summary>
    static string LocalPart(string messageId)
    {
        var trimmed = messageId.Trim().TrimStart('<').TrimEnd('>');
        var at = trimmed.IndexOf('@', StringComparison.Ordinal);
        return at < 0 ? trimmed : trimmed[..at];
    }

    public string Describe() =>
        $"{Received} mails received for {Distinct} outbox rows; {Duplicates} received twice or more; {WithoutRow} without a row; " +
        $"outbox {Rows} rows ({Sent} sent, {Failed} failed, {Pending} pending)";
}

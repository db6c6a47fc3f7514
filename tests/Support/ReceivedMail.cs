using System.Text.Json.Serialization;

namespace IfiDashboard.Tests.Support;

/// <summary>A message as the SMTP server received it, decoded by Python's e-mail package (see smtp_sink.py).</summary>
public sealed record ReceivedMail
{
    [JsonPropertyName("mail_from")] public string MailFrom { get; init; } = "";
    [JsonPropertyName("rcpt_tos")] public List<string> RcptTos { get; init; } = [];
    [JsonPropertyName("subject")] public string Subject { get; init; } = "";
    [JsonPropertyName("from")] public string From { get; init; } = "";
    [JsonPropertyName("to")] public string To { get; init; } = "";
    [JsonPropertyName("message_id")] public string MessageId { get; init; } = "";
    [JsonPropertyName("content_type")] public string ContentType { get; init; } = "";
    [JsonPropertyName("text")] public string? Text { get; init; }
    [JsonPropertyName("html")] public string? Html { get; init; }
    [JsonPropertyName("attachments")] public List<ReceivedAttachment> Attachments { get; init; } = [];
    [JsonPropertyName("headers")] public List<string> Headers { get; init; } = [];
    [JsonPropertyName("defects")] public List<string> Defects { get; init; } = [];
    [JsonPropertyName("authenticated")] public bool Authenticated { get; init; }
    [JsonPropertyName("tls")] public bool Tls { get; init; }
    [JsonPropertyName("connection")] public int Connection { get; init; }
}

/// <summary>An attached file, decoded.</summary>
public sealed record ReceivedAttachment
{
    [JsonPropertyName("file_name")] public string FileName { get; init; } = "";
    [JsonPropertyName("content_type")] public string ContentType { get; init; } = "";
    [JsonPropertyName("content")] public byte[] Content { get; init; } = [];
}

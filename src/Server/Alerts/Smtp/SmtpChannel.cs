using System.Text;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// Reads replies from and writes commands to one stream. Our own buffer rather than a StreamReader, so that after
/// STARTTLS we can prove nothing the relay sent in clear text is left over to be read as if it came over TLS.
/// </summary>
internal sealed class SmtpChannel(Stream stream)
{
    const int MaxLineBytes = 4096;
    const int MaxReplyLines = 100;

    readonly byte[] _buffer = new byte[MaxLineBytes];
    int _start;
    int _end;

    public Stream Stream => stream;

    /// <summary>True when bytes the relay sent have not been read yet.</summary>
    public bool HasBufferedInput => _end > _start;

    public async Task<SmtpReply> ReadReplyAsync(CancellationToken ct)
    {
        var lines = new List<string>();
        while (true)
        {
            var line = await ReadLineAsync(ct);
            if (line.Length < 3 || !int.TryParse(line.AsSpan(0, 3), out var code) || (line.Length > 3 && line[3] is not (' ' or '-')))
                throw new InvalidDataException($"Not an SMTP reply: '{Truncate(line)}'");
            lines.Add(line.Length > 4 ? line[4..] : "");
            if (line.Length == 3 || line[3] == ' ') return new SmtpReply(code, lines);
            if (lines.Count >= MaxReplyLines) throw new InvalidDataException("The SMTP reply has too many lines.");
        }
    }

    public async Task WriteLineAsync(string command, CancellationToken ct)
    {
        await stream.WriteAsync(Encoding.ASCII.GetBytes(command + "\r\n"), ct);
        await stream.FlushAsync(ct);
    }

    public async Task WriteAsync(byte[] bytes, CancellationToken ct)
    {
        await stream.WriteAsync(bytes, ct);
        await stream.FlushAsync(ct);
    }

    async Task<string> ReadLineAsync(CancellationToken ct)
    {
        while (true)
        {
            var newline = Array.IndexOf(_buffer, (byte)'\n', _start, _end - _start);
            if (newline >= 0)
            {
                var length = newline - _start;
                if (length > 0 && _buffer[newline - 1] == '\r') length--;
                var line = Encoding.UTF8.GetString(_buffer, _start, length);
                _start = newline + 1;
                return line;
            }
            if (_start > 0)
            {
                Buffer.BlockCopy(_buffer, _start, _buffer, 0, _end - _start);
                _end -= _start;
                _start = 0;
            }
            if (_end == _buffer.Length) throw new InvalidDataException("An SMTP reply line is longer than 4096 bytes.");
            var read = await stream.ReadAsync(_buffer.AsMemory(_end), ct);
            if (read == 0) throw new EndOfStreamException("The relay closed the connection.");
            _end += read;
        }
    }

    static string Truncate(string line) => line.Length > 80 ? line[..80] + "…" : line;
}

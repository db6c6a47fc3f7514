using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// Checks the relay's certificate: the machine's trust store by default, or equality with a pinned certificate
/// file. Remembers why it refused, so the error can say so.
/// </summary>
internal sealed class SmtpTlsCheck(string? pinnedCertificatePath)
{
    public SslPolicyErrors Errors { get; private set; }
    public bool PinMismatch { get; private set; }

    public bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        Errors = errors;
        if (string.IsNullOrEmpty(pinnedCertificatePath)) return errors == SslPolicyErrors.None;
        if (certificate is null) return false;
        using var pinned = Load(pinnedCertificatePath);
        PinMismatch = !certificate.GetRawCertData().AsSpan().SequenceEqual(pinned.RawData);
        return !PinMismatch;
    }

    static X509Certificate2 Load(string path)
    {
        var bytes = File.ReadAllBytes(path);
        return System.Text.Encoding.ASCII.GetString(bytes).Contains("-----BEGIN CERTIFICATE-----", StringComparison.Ordinal)
            ? X509Certificate2.CreateFromPem(File.ReadAllText(path))
            : X509CertificateLoader.LoadCertificate(bytes);
    }
}

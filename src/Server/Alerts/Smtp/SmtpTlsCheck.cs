using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace IfiDashboard.Server.Alerts.Smtp;

/// <summary>
/// Checks the relay's certificate (MailKit's ServerCertificateValidationCallback): the machine's trust store by
/// default, or equality with a pinned certificate file. Never accepts an invalid certificate otherwise. Remembers
/// why it refused, so the error can say so.
/// </summary>
internal sealed class SmtpTlsCheck
{
    readonly byte[]? _pinned;

    SmtpTlsCheck(byte[]? pinned) => _pinned = pinned;

    public SslPolicyErrors Errors { get; private set; }
    public bool PinMismatch { get; private set; }

    /// <summary>Reads the pinned certificate once, before connecting, so an unreadable file is a configuration error.</summary>
    public static SmtpTlsCheck For(SmtpOptions options)
    {
        var path = options.ServerCertificatePath;
        if (string.IsNullOrEmpty(path)) return new SmtpTlsCheck(null);
        try
        {
            using var pinned = Load(path);
            return new SmtpTlsCheck(pinned.RawData);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or CryptographicException)
        {
            throw new SmtpDeliveryException(SmtpStage.Configuration,
                $"Alerts:Smtp:ServerCertificatePath '{path}' cannot be read as a PEM or DER certificate ({e.Message}).", isTransient: false, inner: e);
        }
    }

    public bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        Errors = errors;
        if (_pinned is null) return errors == SslPolicyErrors.None;
        if (certificate is null) return false;
        PinMismatch = !certificate.GetRawCertData().AsSpan().SequenceEqual(_pinned);
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

using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace IfiDashboard.Tests.Support;

/// <summary>A self-signed certificate for "localhost" and 127.0.0.1, written as PEM files for the SMTP server to serve.</summary>
public sealed class TestCertificate
{
    public required string CertificatePath { get; init; }
    public required string KeyPath { get; init; }

    public static TestCertificate Create(string directory)
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, false));
        var now = DateTimeOffset.UtcNow;
        using var certificate = request.CreateSelfSigned(now.AddDays(-1), now.AddDays(7));
        var result = new TestCertificate
        {
            CertificatePath = Path.Combine(directory, "smtp-cert.pem"),
            KeyPath = Path.Combine(directory, "smtp-key.pem"),
        };
        File.WriteAllText(result.CertificatePath, certificate.ExportCertificatePem());
        File.WriteAllText(result.KeyPath, key.ExportPkcs8PrivateKeyPem());
        return result;
    }
}

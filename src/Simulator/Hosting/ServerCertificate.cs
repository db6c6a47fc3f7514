using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace IfiDashboard.Simulator.Hosting;

/// <summary>
/// A self-signed certificate made at start (CN=localhost, SAN localhost and 127.0.0.1), like a SQL Server that
/// generated its own. Clients trust it with TrustServerCertificate=true, or pin it with ServerCertificate=&lt;pem&gt;.
/// </summary>
public static class ServerCertificate
{
    static readonly Lazy<X509Certificate2> Shared = new(Create);

    public static X509Certificate2 Instance => Shared.Value;

    public static string ExportPem() => Instance.ExportCertificatePem();

    static X509Certificate2 Create()
    {
        using var key = RSA.Create(2048);
        var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName("localhost");
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(
            X509KeyUsageFlags.DigitalSignature | X509KeyUsageFlags.KeyEncipherment, false));
        var now = DateTimeOffset.UtcNow;
        using var ephemeral = request.CreateSelfSigned(now.AddDays(-1), now.AddYears(1));
        // Round-trip through PKCS#12 so the private key is usable by SslStream on every platform.
        return X509CertificateLoader.LoadPkcs12(ephemeral.Export(X509ContentType.Pkcs12), null);
    }
}

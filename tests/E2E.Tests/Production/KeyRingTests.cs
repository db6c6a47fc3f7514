using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace IfiDashboard.E2E.Tests.Production;

/// <summary>
/// The key ring that signs form tokens and session cookies, as the server process writes it: encrypted to the
/// certificate of <c>DataProtection:CertificatePath</c> (a relative path from the working directory, as README says),
/// so a copy of the folder alone forges nothing, and without ASP.NET Core's "No XML encryptor configured" warning.
/// </summary>
public sealed class KeyRingTests : IDisposable
{
    readonly string _directory = Directory.CreateTempSubdirectory("ifi-keyring-").FullName;

    [Fact]
    public async Task A_configured_certificate_encrypts_the_key_ring_at_rest()
    {
        using var rsa = RSA.Create(2048);
        var request = new CertificateRequest("CN=ifidashboard-key-ring", rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddDays(-1), DateTimeOffset.UtcNow.AddYears(1));
        await File.WriteAllBytesAsync(Path.Combine(_directory, "key-ring.pfx"), certificate.Export(X509ContentType.Pfx, "pfx-password"));

        var (server, _) = await ServerProcess.StartOnFreePortAsync(ServerProcess.BuildOutput, _directory, url =>
            ["--urls", url, "--DataProtection:CertificatePath=key-ring.pfx", "--DataProtection:CertificatePassword=pfx-password"],
            TimeSpan.FromSeconds(90));
        await using (server)
        {
            // The key is made as the server starts, by data protection's hosted service, which may finish after the
            // server first answers.
            var key = await File.ReadAllTextAsync(await FirstKeyAsync(Path.Combine(_directory, "data", "keys")));

            Assert.Contains("<encryptedSecret", key, StringComparison.Ordinal);
            Assert.DoesNotContain("<masterKey", key, StringComparison.Ordinal);
            Assert.DoesNotContain("No XML encryptor configured", server.Output, StringComparison.Ordinal);
        }
    }

    static async Task<string> FirstKeyAsync(string folder)
    {
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (true)
        {
            var keys = Directory.Exists(folder) ? Directory.GetFiles(folder, "key-*.xml") : [];
            if (keys.Length > 0) return Assert.Single(keys);
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"No key in {folder} after 60 s.");
            await Task.Delay(100);
        }
    }

    public void Dispose()
    {
        try { Directory.Delete(_directory, recursive: true); } catch (IOException) { }
    }
}

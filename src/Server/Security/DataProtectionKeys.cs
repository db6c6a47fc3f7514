using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using IfiDashboard.Store;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Hosting;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.DataProtection.KeyManagement;
using Microsoft.AspNetCore.DataProtection.Repositories;
using Microsoft.Extensions.Options;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Where the server keeps the keys that sign its antiforgery tokens (and, with sign-in, its session cookies):
/// whoever reads them can forge both. <c>DataProtection:KeysDirectory</c>, by default a <c>keys</c> folder beside
/// the SQLite store, is created owner-only (0700). Servers that share a PostgreSQL store must share one folder
/// (docs/security.md); without the setting they keep ASP.NET Core's per-user default.
/// </summary>
public static class DataProtectionKeys
{
    public const string KeysDirectoryKey = "DataProtection:KeysDirectory";

    public const string CertificatePathKey = "DataProtection:CertificatePath";
    public const string CertificatePasswordKey = "DataProtection:CertificatePassword";

    public static IServiceCollection AddIfiDataProtection(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.DataProtection, IfiModuleNames.Store);
        var dataProtection = services.AddDataProtection().SetApplicationName("IfiDashboard");
        // Keys at rest: encrypted to a certificate every server holds (a shared key ring is then useless to whoever
        // reads only the folder), or on Windows without one, to the service account by DPAPI.
        if (Certificate(configuration) is { } certificate)
            dataProtection.ProtectKeysWithCertificate(certificate).UnprotectKeysWithAnyCertificate(certificate);
        else if (OperatingSystem.IsWindows())
            dataProtection.ProtectKeysWithDpapi();
        // Resolved when the key ring is first used, from the validated store options, not while services register.
        services.AddOptions<KeyManagementOptions>().Configure<IOptions<StoreOptions>, ILoggerFactory>((options, store, loggers) =>
        {
            if (KeysFolder(configuration[KeysDirectoryKey], store.Value) is not { } folder) return;
            PrivateFiles.EnsureFolder(folder);
            options.XmlRepository = new FileSystemXmlRepository(new DirectoryInfo(folder), loggers);
        });
        return services;
    }

    /// <summary>The certificate (PKCS#12 with its private key, or PEM with the key in the same file) the key ring is encrypted to.</summary>
    static X509Certificate2? Certificate(IConfiguration configuration)
    {
        if (configuration[CertificatePathKey] is not { Length: > 0 } configured) return null;
        var path = Path.GetFullPath(configured);
        X509Certificate2 certificate;
        try
        {
            certificate = path.EndsWith(".pem", StringComparison.OrdinalIgnoreCase)
                ? X509Certificate2.CreateFromPemFile(path)
                : X509CertificateLoader.LoadPkcs12FromFile(path, configuration[CertificatePasswordKey]);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or CryptographicException or ArgumentException)
        {
            throw new InvalidSettingException(CertificatePathKey,
                $"the certificate {path} cannot be read ({e.Message}); give a .pfx (with {CertificatePasswordKey}) or a .pem holding " +
                "the certificate and its private key, readable by the server's account.", e);
        }
        if (!certificate.HasPrivateKey)
            throw new InvalidSettingException(CertificatePathKey,
                $"the certificate {path} has no private key: the server needs it to read the keys it encrypted.");
        return certificate;
    }

    internal static string? KeysFolder(string? configured, StoreOptions store)
    {
        if (configured is { Length: > 0 }) return Path.GetFullPath(configured);
        if (!store.IsSqlite) return null;
        var dataSource = new SqliteConnectionStringBuilder(store.ConnectionString).DataSource;
        if (string.IsNullOrEmpty(dataSource) || dataSource == ":memory:" || dataSource.StartsWith("file:", StringComparison.OrdinalIgnoreCase))
            return null;
        return Path.Combine(Path.GetDirectoryName(Path.GetFullPath(dataSource)) ?? ".", "keys");
    }
}

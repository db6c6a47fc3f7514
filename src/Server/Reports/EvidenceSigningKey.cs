using System.Security.Cryptography;
using System.Text;
using IfiDashboard.Server.Security;
using IfiDashboard.Store;
using Microsoft.Extensions.Options;
using IfiDashboard.Shared.Hosting;

namespace IfiDashboard.Server.Reports;

/// <summary><c>Reports:Evidence</c>: the key that signs the evidence report's manifest (docs/reports.md).</summary>
public sealed class EvidenceSigningOptions
{
    public const string SectionName = "Reports:Evidence";

    /// <summary>
    /// A PEM file holding the RSA private key (PKCS#8 or PKCS#1) that signs manifests. When not set, the server makes
    /// one on first use in the data-protection keys folder and keeps it there.
    /// </summary>
    public string? SigningKeyPath { get; set; }
}

/// <summary>
/// Signs evidence manifests with an RSA key the server holds: RSASSA-PKCS1-v1_5 over SHA-256, which is deterministic
/// (a report made twice carries the same signature, so it stays byte-identical) and what
/// <c>openssl dgst -sha256 -verify</c> checks. The key is the configured file, or one made on first use beside the
/// data-protection keys (<see cref="DataProtectionKeys"/>), owner-only, so servers that share that folder share it.
/// </summary>
public sealed class EvidenceSigningKey(IOptions<EvidenceSigningOptions> options, IOptions<StoreOptions> store, IConfiguration configuration,
    ILogger<EvidenceSigningKey> logger) : IDisposable
{
    public const string DefaultFileName = "evidence-signing-key.pem";
    const int KeySize = 3072;

    readonly Lazy<RSA> _key = new(() => Load(options.Value, store.Value, configuration, logger));

    /// <summary>The RSA signature (PKCS#1 v1.5, SHA-256) of the text's UTF-8 bytes.</summary>
    public byte[] Sign(string text) => _key.Value.SignData(Encoding.UTF8.GetBytes(text), HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);

    /// <summary>The public key as PEM (SubjectPublicKeyInfo), what an auditor verifies with.</summary>
    public string PublicKeyPem => _key.Value.ExportSubjectPublicKeyInfoPem();

    /// <summary>SHA-256 of the public key's DER (SubjectPublicKeyInfo), lower-case hex: names the key in a report.</summary>
    public string Fingerprint => Convert.ToHexStringLower(SHA256.HashData(_key.Value.ExportSubjectPublicKeyInfo()));

    /// <summary>Where the key is read from, or made on first use.</summary>
    public static string KeyPath(EvidenceSigningOptions options, StoreOptions store, IConfiguration configuration) =>
        options.SigningKeyPath is { Length: > 0 } configured ? Path.GetFullPath(configured)
        : Path.Combine(DataProtectionKeys.KeysFolder(configuration[DataProtectionKeys.KeysDirectoryKey], store)
            ?? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "IfiDashboard", "keys"), DefaultFileName);

    static RSA Load(EvidenceSigningOptions options, StoreOptions store, IConfiguration configuration, ILogger logger)
    {
        var path = KeyPath(options, store, configuration);
        if (!File.Exists(path))
        {
            // A configured key is the operator's: never made up in its place.
            if (options.SigningKeyPath is { Length: > 0 })
                throw new InvalidOperationException($"{EvidenceSigningOptions.SectionName}:SigningKeyPath names '{path}', which does not exist.");
            Create(path);
            logger.LogInformation("Made the evidence reports' signing key at {Path}", path);
        }
        var key = RSA.Create();
        key.ImportFromPem(File.ReadAllText(path));
        return key;
    }

    /// <summary>Writes a new key owner-only beside its final name, then moves it there; a server that got there first wins.</summary>
    static void Create(string path)
    {
        PrivateFiles.EnsureFolder(Path.GetDirectoryName(path)!);
        var temporary = $"{path}.{Guid.NewGuid():N}.tmp";
        PrivateFiles.EnsureFile(temporary);
        using (var key = RSA.Create(KeySize))
            File.WriteAllText(temporary, key.ExportPkcs8PrivateKeyPem());
        try
        {
            File.Move(temporary, path, overwrite: false);
        }
        catch (IOException) when (File.Exists(path))
        {
            File.Delete(temporary);
        }
    }

    public void Dispose()
    {
        if (_key.IsValueCreated) _key.Value.Dispose();
    }
}

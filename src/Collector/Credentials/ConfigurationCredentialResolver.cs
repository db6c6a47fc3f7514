using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// Reads credentials from the collector's own configuration: section <c>Credentials:&lt;name&gt;</c> with
/// <c>UserId</c> and <c>Password</c> (a SQL login) or <c>IntegratedSecurity=true</c> (the collector's own identity),
/// <c>AllowedHosts:0..n</c>, <c>AllowTrustServerCertificate</c>, <c>CertificateNames:0..n</c> and <c>CertificateFolder</c>. That covers environment variables
/// (<c>Credentials__prod_reader__Password</c>) and a secrets file added as a JSON configuration source
/// (<c>Collector:SecretsFile</c>).
/// </summary>
public sealed class ConfigurationCredentialResolver(IConfiguration configuration) : ICredentialResolver
{
    public CollectorCredential? Resolve(string credentialName)
    {
        // A secrets file may still hold an earlier release's hyphenated key; the environment can only hold the '_' form.
        var credentials = configuration.GetSection("Credentials");
        if (!credentials.GetSection(credentialName).Exists())
            credentialName = InstanceRules.CredentialConfigurationKey(credentialName);
        var section = credentials.GetSection(credentialName);
        var user = section["UserId"];
        var password = section["Password"];
        var integrated = section.GetValue("IntegratedSecurity", false);
        if (integrated && (!string.IsNullOrEmpty(user) || password is not null))
            throw new FormatException($"Credentials:{credentialName} sets IntegratedSecurity=true and a UserId or Password: " +
                                      "integrated security sends no password, so remove them (or IntegratedSecurity, for a SQL login).");
        if (!integrated && (string.IsNullOrEmpty(user) || password is null)) return null;
        var allowedHosts = List(section, credentialName, "AllowedHosts");
        var certificateNames = List(section, credentialName, "CertificateNames");
        if (certificateNames.HasPorts)
            throw new FormatException($"Credentials:{credentialName}:CertificateNames: a TLS name has no port; give names and wildcards only.");
        var folder = section["CertificateFolder"] is { Length: > 0 } configured ? configured : null;
        if (folder is not null && !PinnedCertificate.IsLocalFolder(folder))
            throw new FormatException($"Credentials:{credentialName}:CertificateFolder '{folder}' is not an absolute folder on this machine " +
                                      "(a network share or a relative path is not accepted).");
        var credential = integrated
            ? new CollectorCredential(null, null, allowedHosts)
            : new CollectorCredential(user, password, allowedHosts, section.GetValue("AllowTrustServerCertificate", false));
        return credential with { CertificateNames = certificateNames, CertificateFolder = folder };
    }

    static HostAllowList List(IConfigurationSection credential, string credentialName, string key)
    {
        try
        {
            return HostAllowList.Parse(credential.GetSection(key).GetChildren().Select(c => c.Value));
        }
        catch (FormatException e)
        {
            throw new FormatException($"Credentials:{credentialName}:{key}: {e.Message}", e);
        }
    }
}

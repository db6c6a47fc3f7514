using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// Reads credentials from the collector's own configuration: section <c>Credentials:&lt;name&gt;</c> with
/// <c>UserId</c> and <c>Password</c> (a SQL login) or <c>IntegratedSecurity=true</c> (the collector's own identity),
/// <c>AllowedHosts:0..n</c> and <c>AllowTrustServerCertificate</c>. That covers environment variables
/// (<c>Credentials__prod_reader__Password</c>) and a secrets file added as a JSON configuration source
/// (<c>Collector:SecretsFile</c>).
/// </summary>
public sealed class ConfigurationCredentialResolver(IConfiguration configuration) : ICredentialResolver
{
    public CollectorCredential? Resolve(string credentialName)
    {
        var section = configuration.GetSection("Credentials").GetSection(credentialName);
        var user = section["UserId"];
        var password = section["Password"];
        var integrated = section.GetValue("IntegratedSecurity", false);
        if (integrated && (!string.IsNullOrEmpty(user) || password is not null))
            throw new FormatException($"Credentials:{credentialName} sets IntegratedSecurity=true and a UserId or Password: " +
                                      "integrated security sends no password, so remove them (or IntegratedSecurity, for a SQL login).");
        if (!integrated && (string.IsNullOrEmpty(user) || password is null)) return null;
        HostAllowList allowedHosts;
        try
        {
            allowedHosts = HostAllowList.Parse(section.GetSection("AllowedHosts").GetChildren().Select(c => c.Value));
        }
        catch (FormatException e)
        {
            throw new FormatException($"Credentials:{credentialName}:AllowedHosts: {e.Message}", e);
        }
        return integrated
            ? new CollectorCredential(null, null, allowedHosts)
            : new CollectorCredential(user, password, allowedHosts, section.GetValue("AllowTrustServerCertificate", false));
    }
}

using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// Reads credentials from the collector's own configuration: section <c>Credentials:&lt;name&gt;</c> with
/// <c>UserId</c>, <c>Password</c>, <c>AllowedHosts:0..n</c> and <c>AllowTrustServerCertificate</c>. That covers
/// environment variables (<c>Credentials__prod_reader__Password</c>) and a secrets file added as a JSON configuration
/// source (<c>Collector:SecretsFile</c>).
/// </summary>
public sealed class ConfigurationCredentialResolver(IConfiguration configuration) : ICredentialResolver
{
    public SqlCredential? Resolve(string credentialName)
    {
        var section = configuration.GetSection("Credentials").GetSection(credentialName);
        var user = section["UserId"];
        var password = section["Password"];
        if (string.IsNullOrEmpty(user) || password is null) return null;
        HostAllowList allowedHosts;
        try
        {
            allowedHosts = HostAllowList.Parse(section.GetSection("AllowedHosts").GetChildren().Select(c => c.Value));
        }
        catch (FormatException e)
        {
            throw new FormatException($"Credentials:{credentialName}:AllowedHosts: {e.Message}", e);
        }
        return new SqlCredential(user, password, allowedHosts, section.GetValue("AllowTrustServerCertificate", false));
    }
}

using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// Reads credentials from the collector's own configuration: section <c>Credentials:&lt;name&gt;</c> with
/// <c>UserId</c> and <c>Password</c>. That covers environment variables (<c>Credentials__prod_reader__Password</c>)
/// and a secrets file added as a JSON configuration source (<c>Collector:SecretsFile</c>).
/// </summary>
public sealed class ConfigurationCredentialResolver(IConfiguration configuration) : ICredentialResolver
{
    public SqlCredential? Resolve(string credentialName)
    {
        var section = configuration.GetSection("Credentials").GetSection(credentialName);
        var user = section["UserId"];
        var password = section["Password"];
        return string.IsNullOrEmpty(user) || password is null ? null : new SqlCredential(user, password);
    }
}

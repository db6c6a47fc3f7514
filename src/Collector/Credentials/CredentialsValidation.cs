using IfiDashboard.Collector.Connections;
using IfiDashboard.Collector.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// Every configured credential is read once at start, as a poll would read it, so that a wrong allow-list, TLS name,
/// folder or switch stops the start with one line naming it instead of failing instance by instance later.
/// </summary>
sealed class CredentialsValidation(IConfiguration configuration) : IValidateOptions<CollectorOptions>
{
    public ValidateOptionsResult Validate(string? name, CollectorOptions options)
    {
        var resolver = new ConfigurationCredentialResolver(configuration);
        var failures = new List<string>();
        foreach (var credential in configuration.GetSection("Credentials").GetChildren())
        {
            try
            {
                resolver.Resolve(credential.Key);
            }
            catch (FormatException e)
            {
                failures.Add(e.Message);
            }
            catch (InvalidOperationException e) when (SettingValues.ConversionAdvice(e) is { } advice)
            {
                failures.Add(advice);
            }
        }
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}

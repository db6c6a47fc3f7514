using IfiDashboard.Collector.Credentials;
using IfiDashboard.Shared.Inventory;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Connections;

/// <summary>Builds the SqlClient connection string for an instance; the secret comes from the local resolver.</summary>
public sealed class ConnectionStringFactory(ICredentialResolver credentials, CollectorOptions options)
{
    public const string ApplicationName = "IfiDashboard";

    /// <exception cref="MissingCredentialException">The instance names a credential this collector does not hold.</exception>
    public string Build(InstanceRegistration instance)
    {
        var builder = new SqlConnectionStringBuilder
        {
            DataSource = DataSource(instance),
            ApplicationName = ApplicationName,
            Encrypt = instance.Encrypt switch
            {
                EncryptMode.Optional => SqlConnectionEncryptOption.Optional,
                EncryptMode.Strict => SqlConnectionEncryptOption.Strict,
                _ => SqlConnectionEncryptOption.Mandatory,
            },
            TrustServerCertificate = instance.TrustServerCertificate,
            ConnectTimeout = options.ConnectTimeoutSeconds,
            // Our scheduler decides about retries; SqlClient's own reconnect loop would hide failures and
            // multiply login attempts (account lock-out).
            ConnectRetryCount = 0,
            // Pooled, because SqlClient lets only 2 x cores non-pooled async opens run at once, so one hanging
            // instance would stall the fleet. The prober clears the pool after each poll: no idle session is left
            // on a production instance between polls. A lease gives one poll per instance at a time.
            Pooling = true,
            MaxPoolSize = 2,
            MultipleActiveResultSets = false,
        };
        if (!string.IsNullOrEmpty(instance.HostNameInCertificate))
            builder.HostNameInCertificate = instance.HostNameInCertificate;
        if (!string.IsNullOrEmpty(instance.ServerCertificatePath))
            builder.ServerCertificate = instance.ServerCertificatePath;

        if (instance.CredentialName is null)
        {
            builder.IntegratedSecurity = true;
        }
        else
        {
            var credential = credentials.Resolve(instance.CredentialName)
                             ?? throw new MissingCredentialException(instance.CredentialName, options.Name);
            builder.UserID = credential.UserId;
            builder.Password = credential.Password;
        }
        return builder.ConnectionString;
    }

    /// <summary>host,port when a port is given; otherwise host\instance (SQL Browser) or the host alone.</summary>
    static string DataSource(InstanceRegistration instance) => instance.Port is { } port
        ? $"tcp:{instance.Host},{port}"
        : instance.InstanceName is { Length: > 0 } name ? $"{instance.Host}\\{name}" : instance.Host;
}

public sealed class MissingCredentialException(string credentialName, string collectorName)
    : Exception($"Collector '{collectorName}' has no credential named '{credentialName}'. " +
                $"Set Credentials__{credentialName}__UserId and Credentials__{credentialName}__Password " +
                "in its environment, or add it to its secrets file.")
{
    public string CredentialName { get; } = credentialName;
}

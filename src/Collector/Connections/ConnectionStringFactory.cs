using IfiDashboard.Collector.Credentials;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Logging;

namespace IfiDashboard.Collector.Connections;

/// <summary>
/// Builds the SqlClient connection string for an instance; the secret comes from the local resolver. Every poll and
/// every "Test connection" passes here, so this is where the collector refuses to be steered: the registration comes
/// from whoever can edit the inventory, the credential from the collector's own configuration.
/// </summary>
public sealed class ConnectionStringFactory(ICredentialResolver credentials, CollectorOptions options, ILogger<ConnectionStringFactory> logger)
{
    public const string ApplicationName = "IfiDashboard";

    readonly HostAllowList _allowedNetworks = HostAllowList.Parse(options.AllowedNetworks);

    /// <exception cref="MissingCredentialException">The instance names a credential this collector does not hold.</exception>
    /// <exception cref="ConnectionPolicyException">The host or the transport is not one the collector may use.</exception>
    public string Build(InstanceRegistration instance)
    {
        var port = HostAllowList.PortOf(instance.Port, instance.InstanceName);
        if (!_allowedNetworks.IsEmpty && !_allowedNetworks.Matches(instance.Host, port))
            throw Refuse(instance, OutcomeClass.HostNotAllowed,
                $"{Endpoint(instance, port)} is outside Collector:AllowedNetworks of collector '{options.Name}'; " +
                $"add it (or a wildcard or CIDR range covering it, with the port: {Suggestion(instance, port)}) there to poll it. {PortRule}");

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
            // Not pooled: a poll's connection is closed when the poll ends, so no idle session is left on a
            // production instance and no pool per instance is left in the collector (each connection string is a
            // pool of its own, kept after being cleared until SqlClient prunes it minutes later). The prober opens
            // on a thread of its own (InstanceProber.OpenAsync): SqlClient's non-pooled OpenAsync runs one open per
            // core at a time.
            Pooling = false,
            MultipleActiveResultSets = false,
        };
        // No credential named: the collector's own identity, which Negotiate may hand to any host as Kerberos or,
        // failing that, NTLM (relayable). Like every credential it is used only where an administrator bound it: here,
        // to Collector:AllowedNetworks (checked above), so without that list an instance must name a credential.
        if (instance.CredentialName is null && _allowedNetworks.IsEmpty)
            throw Refuse(instance, OutcomeClass.HostNotAllowed,
                $"Instance names no credential, so collector '{options.Name}' would log in as itself (integrated security), " +
                "which it does only within Collector:AllowedNetworks, and that list is empty. Set Collector:AllowedNetworks " +
                "(names, wildcards or CIDR ranges), or name a credential with IntegratedSecurity=true and AllowedHosts.");
        var credential = instance.CredentialName is null ? null : Resolve(instance, port);
        if (!string.IsNullOrEmpty(instance.ServerCertificatePath))
            builder.ServerCertificate = Pin(instance, credential);
        if (credential is null || credential.IsIntegratedSecurity)
        {
            // Integrated security: the collector's own identity, proven by Kerberos/NTLM, so no reusable secret
            // travels and the instance's Encrypt setting and TLS name are kept as registered.
            builder.IntegratedSecurity = true;
            if (!string.IsNullOrEmpty(instance.HostNameInCertificate))
                builder.HostNameInCertificate = instance.HostNameInCertificate;
        }
        else
        {
            if (!string.IsNullOrEmpty(instance.HostNameInCertificate))
                builder.HostNameInCertificate = CertificateName(instance, credential);
            builder.UserID = credential.UserId;
            builder.Password = credential.Password;
            // Optional would let a server that answers "encryption not supported" receive LOGIN7, password and all,
            // in clear. Upgrading rather than refusing keeps every server that can do TLS working unchanged.
            if (builder.Encrypt == SqlConnectionEncryptOption.Optional)
                builder.Encrypt = SqlConnectionEncryptOption.Mandatory;
            if (instance.TrustServerCertificate && !credential.AllowTrustServerCertificate)
                throw Refuse(instance, OutcomeClass.InsecureTransportRefused,
                    $"Instance is registered with TrustServerCertificate, so any listener could receive the SQL login of " +
                    $"credential '{instance.CredentialName}'. Trust the certificate's issuer on collector '{options.Name}' or " +
                    $"pin the certificate (ServerCertificatePath) and clear TrustServerCertificate, or allow it for this " +
                    $"credential with Credentials:{instance.CredentialName}:AllowTrustServerCertificate=true.");
        }
        return builder.ConnectionString;
    }

    /// <summary>
    /// The TLS name a SQL login's server must prove: its host unless the registration names another, which the
    /// credential must list. Otherwise an inventory editor could point an allowed address at a listener of their own
    /// and name any certificate the collector's machine trusts (any machine certificate of the enterprise CA).
    /// </summary>
    string CertificateName(InstanceRegistration instance, CollectorCredential credential)
    {
        var name = instance.HostNameInCertificate!;
        if (string.Equals(name.TrimEnd('.'), instance.Host.TrimEnd('.'), StringComparison.OrdinalIgnoreCase) ||
            credential.CertificateNames.Matches(name, null))
            return name;
        throw Refuse(instance, OutcomeClass.InsecureTransportRefused,
            $"Instance names the TLS name '{name}' (HostNameInCertificate), which credential '{instance.CredentialName}' does not list, " +
            $"so a listener holding any certificate for that name could receive its SQL login. Add it (or a wildcard covering it) to " +
            $"Credentials:{instance.CredentialName}:CertificateNames on collector '{options.Name}' if it should be, or clear " +
            "HostNameInCertificate so the certificate is validated against the host.");
    }

    /// <summary>The pinned certificate file, if the instance's credential has a CertificateFolder holding it as a plain file.</summary>
    string Pin(InstanceRegistration instance, CollectorCredential? credential)
    {
        var path = instance.ServerCertificatePath!;
        if (credential?.CertificateFolder is not { } folder)
            throw Refuse(instance, OutcomeClass.InsecureTransportRefused,
                instance.CredentialName is null
                    ? $"Instance pins the certificate '{path}' but names no credential, and collector '{options.Name}' reads pins only " +
                      "from the folder a credential names (Credentials:<name>:CertificateFolder): name one."
                    : $"Instance pins the certificate '{path}', but credential '{instance.CredentialName}' names no folder of pinned " +
                      $"certificates, so collector '{options.Name}' reads none. Set Credentials:{instance.CredentialName}:CertificateFolder " +
                      "to the absolute folder holding them, and put the file there.");
        if (PinnedCertificate.Refusal(path, folder) is { } refusal)
            throw Refuse(instance, OutcomeClass.InsecureTransportRefused,
                $"Certificate pin refused by collector '{options.Name}': {refusal} Put the certificate file in " +
                $"Credentials:{instance.CredentialName}:CertificateFolder and name it there.");
        return path;
    }

    CollectorCredential Resolve(InstanceRegistration instance, int? port)
    {
        var name = instance.CredentialName!;
        CollectorCredential? credential;
        try
        {
            credential = credentials.Resolve(name);
        }
        catch (FormatException e)
        {
            throw Refuse(instance, OutcomeClass.HostNotAllowed, $"{e.Message} Fix it on collector '{options.Name}'.");
        }
        if (credential is null) throw new MissingCredentialException(name, options.Name);
        if (credential.AllowedHosts.IsEmpty)
            throw Refuse(instance, OutcomeClass.HostNotAllowed,
                $"Credential '{name}' has no allow-list, so collector '{options.Name}' uses it nowhere. Set " +
                $"Credentials:{name}:AllowedHosts:0 (Credentials__{name}__AllowedHosts__0) to '{instance.Host}', " +
                "a wildcard such as '*.prod.example.com' or a CIDR range such as '10.20.0.0/16'.");
        if (!credential.AllowedHosts.Matches(instance.Host, port))
            throw Refuse(instance, OutcomeClass.HostNotAllowed,
                $"Credential '{name}' is not allowed for {Endpoint(instance, port)}. Add it (or a wildcard or CIDR range " +
                $"covering it, with the port: {Suggestion(instance, port)}) to Credentials:{name}:AllowedHosts on collector " +
                $"'{options.Name}' if it should be. {PortRule} Names match names only and ranges match IP addresses only: nothing is resolved.");
        return credential;
    }

    const string PortRule = "An entry without a port allows port 1433 and named instances found through SQL Browser only.";

    static string Endpoint(InstanceRegistration instance, int? port) => port is { } p
        ? $"host '{instance.Host}' port {p}"
        : $"host '{instance.Host}' (instance '{instance.InstanceName}', port from SQL Browser)";

    static string Suggestion(InstanceRegistration instance, int? port)
    {
        var host = instance.Host.Contains(':') && !instance.Host.StartsWith('[') ? $"[{instance.Host}]" : instance.Host;
        return port is { } p ? $"'{host}:{p}'" : $"'{host}', or register the instance's port";
    }

    ConnectionPolicyException Refuse(InstanceRegistration instance, OutcomeClass outcome, string reason)
    {
        logger.LogWarning("Refused to connect to instance {InstanceName} (id {InstanceId}) at host {Host} with credential {CredentialName}: {Reason}",
            instance.Name, instance.Id, instance.Host, instance.CredentialName ?? "(integrated security)", reason);
        return new ConnectionPolicyException(outcome, reason);
    }

    /// <summary>host,port when a port is given; otherwise host\instance (SQL Browser) or the host alone.</summary>
    static string DataSource(InstanceRegistration instance) => instance.Port is { } port
        ? $"tcp:{instance.Host},{port}"
        : instance.InstanceName is { Length: > 0 } name ? $"{instance.Host}\\{name}" : instance.Host;
}

public sealed class MissingCredentialException(string credentialName, string collectorName)
    : Exception($"Collector '{collectorName}' has no credential named '{credentialName}'. " +
                $"Set Credentials__{credentialName}__UserId and Credentials__{credentialName}__Password (a SQL login) or " +
                $"Credentials__{credentialName}__IntegratedSecurity=true (the collector's own identity) in its environment, " +
                "or add it to its secrets file.")
{
    public string CredentialName { get; } = credentialName;
}

/// <summary>The collector refused to connect before opening a socket; the message says what to configure, never a secret.</summary>
public sealed class ConnectionPolicyException(OutcomeClass outcome, string message) : Exception(message)
{
    public OutcomeClass Outcome { get; } = outcome;
}

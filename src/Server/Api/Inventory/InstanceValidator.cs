using IfiDashboard.Store.Inventory;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>
/// Turns a CMDB's instance into a registration and checks it against <see cref="InstanceRules"/>, the rules every
/// path applies; only the external key and the wire form of <c>encrypt</c> are the API's own.
/// </summary>
internal static class InstanceValidator
{
    /// <param name="prefix">Prepended to field names: "" for a PUT, "instances[3]." in a sync.</param>
    /// <param name="externalKey">The key the instance is stored under (from the URL, or the item's own).</param>
    /// <returns>The desired instance, or null when <paramref name="errors"/> got messages.</returns>
    public static DesiredInstance? Validate(InstanceInput input, string? externalKey, string prefix, FieldErrors errors)
    {
        var before = errors.Count;
        string F(string field) => prefix + field;

        if (string.IsNullOrEmpty(externalKey))
            errors.Add(F("externalKey"), "Required.");
        else if (!FieldRules.ExternalKey().IsMatch(externalKey))
            errors.Add(F("externalKey"), "1–128 characters: letters, digits and . _ : -, starting with a letter or digit.");

        var encrypt = EncryptMode.Mandatory;
        if (input.Encrypt is not null && !TryParseEncrypt(input.Encrypt, out encrypt))
            errors.Add(F("encrypt"), "One of Mandatory, Optional, Strict.");

        var registration = new InstanceRegistration
        {
            Name = input.Name ?? "",
            Host = input.Host ?? "",
            Port = input.Port,
            InstanceName = input.InstanceName,
            Environment = input.Environment ?? "Production",
            Owner = input.Owner,
            Tags = input.Tags?.Select(t => t ?? "").ToArray() ?? [],
            Encrypt = encrypt,
            TrustServerCertificate = input.TrustServerCertificate ?? false,
            HostNameInCertificate = input.HostNameInCertificate,
            ServerCertificatePath = input.ServerCertificatePath,
            CredentialName = input.CredentialName,
            PollIntervalSeconds = input.PollIntervalSeconds ?? InstanceRules.DefaultPollSeconds,
        };
        foreach (var error in InstanceRules.Check(registration))
            errors.Add(F(error.Path), error.Message);

        return errors.Count > before ? null : new DesiredInstance(externalKey!, registration);
    }

    // Names only: Enum.TryParse would also take "1" or "Mandatory,Strict".
    static bool TryParseEncrypt(string text, out EncryptMode mode)
    {
        foreach (var candidate in Enum.GetValues<EncryptMode>())
        {
            if (string.Equals(candidate.ToString(), text, StringComparison.OrdinalIgnoreCase))
            {
                mode = candidate;
                return true;
            }
        }
        mode = default;
        return false;
    }
}

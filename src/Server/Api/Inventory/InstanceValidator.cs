using IfiDashboard.Server.Store.Inventory;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Server.Api.Inventory;

/// <summary>Checks a CMDB's instance against <see cref="FieldRules"/> and turns it into a registration.</summary>
internal static class InstanceValidator
{
    public const int MinPollSeconds = 30;
    public const int MaxPollSeconds = 86_400;
    public const int DefaultPollSeconds = 300;

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

        if (string.IsNullOrEmpty(input.Name))
            errors.Add(F("name"), "Required.");
        else if (!FieldRules.Name().IsMatch(input.Name))
            errors.Add(F("name"), @"1–128 characters: letters, digits, inner spaces and . _ - \ : @ # ( ) +, starting with a letter or digit.");

        if (string.IsNullOrEmpty(input.Host))
            errors.Add(F("host"), "Required.");
        else if (!FieldRules.IsPlausibleHost(input.Host))
            errors.Add(F("host"), "A DNS name, IPv4 or IPv6 address of at most 253 characters, without scheme, port or spaces.");

        if (input.Port is < 1 or > 65_535)
            errors.Add(F("port"), "Must be between 1 and 65535.");
        if (input.InstanceName is not null && !FieldRules.InstanceName().IsMatch(input.InstanceName))
            errors.Add(F("instanceName"), "1–16 letters, digits, _ or $, not starting with a digit.");
        if (input.Port is not null && input.InstanceName is not null)
        {
            errors.Add(F("port"), "Give port or instanceName, not both.");
            errors.Add(F("instanceName"), "Give port or instanceName, not both.");
        }

        CheckText(input.Environment, F("environment"), errors);
        CheckText(input.Owner, F("owner"), errors);
        var tags = CheckTags(input.Tags, F("tags"), errors);

        EncryptMode encrypt = EncryptMode.Mandatory;
        if (input.Encrypt is not null && !TryParseEncrypt(input.Encrypt, out encrypt))
            errors.Add(F("encrypt"), "One of Mandatory, Optional, Strict.");
        if (input.HostNameInCertificate is not null && (input.HostNameInCertificate.Contains(':') || !FieldRules.IsPlausibleHost(input.HostNameInCertificate)))
            errors.Add(F("hostNameInCertificate"), "A DNS name of at most 253 characters.");
        if (input.CredentialName is not null && !FieldRules.CredentialName().IsMatch(input.CredentialName))
            errors.Add(F("credentialName"), "1–128 characters: letters, digits and _, starting with a letter or digit (it becomes part of environment variable names, Credentials__<name>__Password).");
        if (input.PollIntervalSeconds is < MinPollSeconds or > MaxPollSeconds)
            errors.Add(F("pollIntervalSeconds"), $"Must be between {MinPollSeconds} and {MaxPollSeconds}.");

        if (errors.Count > before)
            return null;
        return new DesiredInstance(externalKey!, new InstanceRegistration
        {
            Name = input.Name!,
            Host = input.Host!,
            Port = input.Port,
            InstanceName = input.InstanceName,
            Environment = input.Environment ?? "Production",
            Owner = input.Owner,
            Tags = tags,
            Encrypt = encrypt,
            TrustServerCertificate = input.TrustServerCertificate ?? false,
            HostNameInCertificate = input.HostNameInCertificate,
            CredentialName = input.CredentialName,
            PollIntervalSeconds = input.PollIntervalSeconds ?? DefaultPollSeconds,
        });
    }

    static void CheckText(string? value, string field, FieldErrors errors)
    {
        if (value is null)
            return;
        if (value.Length is 0 or > FieldRules.MaxTextLength || !FieldRules.IsPlainText(value) || value.Trim().Length != value.Length)
            errors.Add(field, $"Omit it, or give 1–{FieldRules.MaxTextLength} characters without control characters or surrounding spaces.");
    }

    static string[] CheckTags(List<string?>? tags, string field, FieldErrors errors)
    {
        if (tags is null)
            return [];
        if (tags.Count > FieldRules.MaxTags)
        {
            errors.Add(field, $"At most {FieldRules.MaxTags} tags.");
            return [];
        }
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        for (var i = 0; i < tags.Count; i++)
        {
            var tag = tags[i];
            if (string.IsNullOrEmpty(tag) || tag.Length > FieldRules.MaxTagLength || !FieldRules.IsPlainText(tag) || tag.Trim().Length != tag.Length)
                errors.Add($"{field}[{i}]", $"1–{FieldRules.MaxTagLength} characters without control characters or surrounding spaces.");
            else if (!seen.Add(tag))
                errors.Add($"{field}[{i}]", "Duplicate tag (tags compare ignoring case).");
        }
        return tags.Select(t => t ?? "").ToArray();
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

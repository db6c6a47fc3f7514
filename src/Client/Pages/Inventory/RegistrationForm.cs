using System.Globalization;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// The registration form as typed: strings, so "abc" in the port comes back with a message rather than vanishing in
/// binding. The field rules themselves (names, hosts, ranges) are the inventory editor's, answered per field.
/// </summary>
public sealed class RegistrationForm
{
    public const string Save = "save";
    public const string Test = "test";
    public const int DefaultPollIntervalSeconds = 300;

    public string? Name { get; set; }
    public string? Host { get; set; }
    public string? Port { get; set; }
    public string? InstanceName { get; set; }
    public string? Environment { get; set; } = "Production";
    public string? Owner { get; set; }
    /// <summary>Separated by ';' (<see cref="TagText"/>).</summary>
    public string? Tags { get; set; }
    public string? Encrypt { get; set; } = nameof(EncryptMode.Mandatory);
    public bool TrustServerCertificate { get; set; }
    public string? HostNameInCertificate { get; set; }
    public string? ServerCertificatePath { get; set; }
    public string? CredentialName { get; set; }
    public string? PollIntervalSeconds { get; set; } = DefaultPollIntervalSeconds.ToString(CultureInfo.InvariantCulture);

    /// <summary>The submit button pressed: <see cref="Save"/> or <see cref="Test"/>.</summary>
    public string? Command { get; set; }

    /// <summary>The form field name for a property ("Form.Port"), as posted and as errors are keyed.</summary>
    public static string Field(string property) => "Form." + property;

    /// <summary>Maps the editor's field ("pollIntervalSeconds") to the form's ("Form.PollIntervalSeconds").</summary>
    public static string FieldOfEditor(string? field) => string.IsNullOrEmpty(field) || field == "id"
        ? Field(nameof(Name))
        : Field(char.ToUpperInvariant(field[0]) + field[1..]);

    public static RegistrationForm From(InstanceRegistration r) => new()
    {
        Name = r.Name,
        Host = r.Host,
        Port = r.Port?.ToString(CultureInfo.InvariantCulture),
        InstanceName = r.InstanceName,
        Environment = r.Environment,
        Owner = r.Owner,
        Tags = string.Join(TagText.Separator + " ", r.Tags),
        Encrypt = r.Encrypt.ToString(),
        TrustServerCertificate = r.TrustServerCertificate,
        HostNameInCertificate = r.HostNameInCertificate,
        ServerCertificatePath = r.ServerCertificatePath,
        CredentialName = r.CredentialName,
        PollIntervalSeconds = r.PollIntervalSeconds.ToString(CultureInfo.InvariantCulture),
    };

    /// <summary>The registration the form describes, or null with the fields that could not be read.</summary>
    public InstanceRegistration? ToRegistration(long id, FormErrors errors)
    {
        int? port = null;
        if (Blank(Port) is { } typedPort)
        {
            if (int.TryParse(typedPort, NumberStyles.None, CultureInfo.InvariantCulture, out var p)) port = p;
            else errors.Add(Field(nameof(Port)), "A port number from 1 to 65535, or empty to use the default port or the instance name.");
        }
        var interval = DefaultPollIntervalSeconds;
        if (Blank(PollIntervalSeconds) is { } typedInterval && !int.TryParse(typedInterval, NumberStyles.None, CultureInfo.InvariantCulture, out interval))
            errors.Add(Field(nameof(PollIntervalSeconds)), "A whole number of seconds, from 30 to 86400.");
        if (!Enum.TryParse<EncryptMode>(Encrypt, ignoreCase: false, out var encrypt) || !Enum.IsDefined(encrypt))
            errors.Add(Field(nameof(Encrypt)), "Choose Mandatory, Optional or Strict.");
        if (TagText.Error(Tags) is { } tagError)
            errors.Add(Field(nameof(Tags)), tagError);
        if (errors.Any) return null;
        return new InstanceRegistration
        {
            Id = id,
            Name = Name?.Trim() ?? "",
            Host = Host?.Trim() ?? "",
            Port = port,
            InstanceName = Blank(InstanceName),
            Environment = Environment?.Trim() ?? "",
            Owner = Blank(Owner),
            Tags = TagText.Split(Tags),
            Encrypt = encrypt,
            TrustServerCertificate = TrustServerCertificate,
            HostNameInCertificate = Blank(HostNameInCertificate),
            ServerCertificatePath = Blank(ServerCertificatePath),
            CredentialName = Blank(CredentialName),
            PollIntervalSeconds = interval,
        };
    }

    static string? Blank(string? value) => string.IsNullOrWhiteSpace(value) ? null : value.Trim();
}

using System.Globalization;
using System.Security.Claims;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Alerts;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages;

/// <summary>
/// Acknowledge or snooze one instance's alerts (<c>?instance=id</c>: where the alert mail links to), silence a scope,
/// and end a silence in force. Plain HTML forms handled by static SSR (docs/decisions/0003): no link changes anything,
/// each change is a POST by a signed-in Operator or Administrator, then a redirect back here saying what was done.
/// </summary>
public partial class AlertSilencesPage
{
    [Inject] IAlertSilences Silences { get; set; } = null!;
    [Inject] IFleetAssessments Assessments { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;
    [Inject] TimeProvider Time { get; set; } = null!;
    [CascadingParameter] HttpContext? HttpContext { get; set; }

    ClaimsPrincipal User => HttpContext?.User ?? new ClaimsPrincipal();

    [SupplyParameterFromForm(FormName = "acknowledge")] public SilenceForm? Acknowledge { get; set; }
    [SupplyParameterFromForm(FormName = "snooze")] public SilenceForm? Snooze { get; set; }
    [SupplyParameterFromForm(FormName = "silence")] public SilenceForm? Silence { get; set; }
    [SupplyParameterFromForm(FormName = "end-silence")] public SilenceForm? End { get; set; }

    [SupplyParameterFromQuery(Name = "instance")] public string? InstanceText { get; set; }
    long? InstanceId => QueryNumber.Id(InstanceText);
    /// <summary>The silence to confirm ending (<c>?end=id</c>, a safe GET).</summary>
    [SupplyParameterFromQuery(Name = "end")] public string? EndText { get; set; }
    long? EndId => QueryNumber.Id(EndText);
    [SupplyParameterFromQuery(Name = "done")] public string? Done { get; set; }
    /// <summary>
    /// The silence a change was about (<c>?silence=id</c>): its scope is read from the store, so the redirect carries
    /// only a word and numbers and a crafted link cannot put its own words on the page.
    /// </summary>
    [SupplyParameterFromQuery(Name = "silence")] public string? DoneSilence { get; set; }

    static readonly int MaxDays = (int)AlertSilence.MaxDuration.TotalDays;

    readonly FormErrors _errors = new();
    IReadOnlyList<SilenceView> _active = [];
    IReadOnlyList<string> _openAlerts = [];
    IReadOnlyList<(string Value, string Label)> _scopes = [];
    InstanceAssessment? _instance;
    SilenceView? _confirmEnd;
    string _defaultUntil = "";
    string? _loadError;
    string? _message;
    bool _failed;

    protected override async Task OnInitializedAsync()
    {
        var tomorrow = Time.GetUtcNow().UtcDateTime.AddDays(1);
        _defaultUntil = WaiverGrant.FormatExpiry(new DateTime(tomorrow.Year, tomorrow.Month, tomorrow.Day, tomorrow.Hour, 0, 0, DateTimeKind.Utc));
        try
        {
            _active = await Silences.ActiveAsync(PageClosed);
            _message = DoneMessage(Done, _active.FirstOrDefault(s => s.Silence.Id == QueryNumber.Id(DoneSilence))?.Scope);
            var fleet = await Assessments.GetAsync(PageClosed);
            _scopes = Scopes(fleet);
            if (InstanceId is { } id && fleet.Find(id) is { } instance)
            {
                _instance = instance;
                _openAlerts = await Silences.OpenAlertsAsync(id, PageClosed);
            }
            _confirmEnd = _active.FirstOrDefault(s => s.Silence.Id == EndId);
            if (EndId is { } endId && _confirmEnd is null)
                Fail($"No silence #{endId} is in force: it may have ended or expired already.");
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading the silences", e);
        }
    }

    /// <param name="scope">The silence's scope in words, while it is in force; an ended one is named by nothing.</param>
    static string? DoneMessage(string? done, string? scope) => done switch
    {
        "acknowledged" => $"Acknowledged: no alert about {scope ?? "it"} goes out until it resolves.",
        "snoozed" => $"Snoozed: no alert about {scope ?? "it"} goes out until the snooze ends.",
        "silenced" => $"Silenced: no alert about {scope ?? "its scope"} goes out until the silence ends.",
        "ended" => "Ended: the alerts it held back go out again from the next evaluation.",
        _ => null,
    };

    /// <summary>Every instance, environment and tag of the fleet, as the silence form's choices.</summary>
    static List<(string Value, string Label)> Scopes(FleetAssessment fleet)
    {
        var registrations = fleet.Instances.Select(i => i.Registration).ToList();
        return registrations.OrderBy(r => r.Name, StringComparer.OrdinalIgnoreCase)
            .Select(r => (SilenceForm.InstanceScope + r.Id.ToString(CultureInfo.InvariantCulture), $"Instance {r.Name} ({r.Environment})"))
            .Concat(registrations.Select(r => r.Environment).Distinct(StringComparer.OrdinalIgnoreCase).Order(StringComparer.OrdinalIgnoreCase)
                .Select(e => (SilenceForm.EnvironmentScope + e, $"Environment {e} (every instance)")))
            .Concat(registrations.SelectMany(r => r.Tags).Distinct(StringComparer.OrdinalIgnoreCase).Order(StringComparer.OrdinalIgnoreCase)
                .Select(t => (SilenceForm.TagScope + t, $"Tag {t} (every instance)")))
            .ToList();
    }

    Task AcknowledgeAsync() => CreateAsync(Acknowledge, "Acknowledge", SilenceKind.Acknowledgement, "acknowledged");
    Task SnoozeAsync() => CreateAsync(Snooze, "Snooze", SilenceKind.Snooze, "snoozed");
    Task SilenceAsync() => CreateAsync(Silence, "Silence", SilenceKind.Silence, "silenced");

    async Task CreateAsync(SilenceForm? form, string prefix, SilenceKind kind, string done)
    {
        if (form is null || _loadError is not null) return;
        if (form.ToRequest(kind, prefix, Time.GetUtcNow(), _errors) is not { } request)
        {
            Fail("Nothing was silenced: correct the fields marked below.");
            return;
        }
        long created;
        try
        {
            created = await Silences.CreateAsync(request, User, CancellationToken.None);
        }
        catch (UnauthorizedAccessException refused)
        {
            Refuse($"Nothing was silenced: {refused.Message}");
            return;
        }
        catch (ArgumentException refused)
        {
            _errors.Add(form.FieldOf(prefix, refused), WaiverGrant.MessageOf(refused));
            Fail("Nothing was silenced: correct the fields marked below.");
            return;
        }
        catch (Exception e)
        {
            Fail($"Nothing was silenced: {Failures.Logged("Silencing an alert", e)}");
            return;
        }
        Navigation.NavigateTo(Redirect(done, created) + (request.InstanceId is { } id && kind != SilenceKind.Silence
            ? $"&instance={id.ToString(CultureInfo.InvariantCulture)}" : ""));
    }

    async Task EndAsync()
    {
        var silence = QueryNumber.Id(End?.SilenceId) is { } id
            ? _active.FirstOrDefault(s => s.Silence.Id == id) : null;
        if (silence is null)
        {
            Fail("No silence was ended: it is no longer in force.");
            return;
        }
        try
        {
            if (!await Silences.EndAsync(silence.Silence.Id, User, CancellationToken.None))
            {
                Fail($"The silence of {silence.Scope} is no longer in force: it ended or expired meanwhile.");
                return;
            }
        }
        catch (UnauthorizedAccessException refused)
        {
            Refuse($"The silence was not ended: {refused.Message}");
            return;
        }
        catch (Exception e)
        {
            Fail($"The silence could not be ended: {Failures.Logged("Ending a silence", e)}");
            return;
        }
        Navigation.NavigateTo(Redirect("ended", silence.Silence.Id));
    }

    static string Redirect(string done, long silenceId) =>
        string.Create(CultureInfo.InvariantCulture, $"alerts/silences?done={done}&silence={silenceId}");

    void Refuse(string message)
    {
        if (HttpContext is { Response.HasStarted: false } http) http.Response.StatusCode = StatusCodes.Status403Forbidden;
        Fail(message);
    }

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }

    public static string KindText(SilenceKind kind) => kind switch
    {
        SilenceKind.Acknowledgement => "acknowledgement",
        SilenceKind.Snooze => "snooze",
        _ => "silence",
    };

    static string RuleText(string rule) => rule switch
    {
        "NonCompliant" => "IFI against policy",
        "Unknown" => "IFI state unknown",
        "WaiverExpiring" => "waiver ending soon",
        _ => rule,
    };
}

/// <summary>
/// One of the silences page's forms as posted: the instance (acknowledge, snooze), the scope (silence: <c>instance:12</c>,
/// <c>environment:Test</c>, <c>tag:pci</c>), how long (a period or until a moment) and the reason; the silence to end.
/// The rules on the values are <see cref="SilenceRules"/>, checked by the server.
/// </summary>
public sealed class SilenceForm
{
    public const string InstanceScope = "instance:";
    public const string EnvironmentScope = "environment:";
    public const string TagScope = "tag:";
    public const string UntilChoice = "until";
    public const string DefaultPeriod = "4h";

    public static readonly IReadOnlyList<(string Value, string Label, TimeSpan? Length)> Periods =
    [
        ("4h", "4 hours", TimeSpan.FromHours(4)),
        ("1d", "1 day", TimeSpan.FromDays(1)),
        ("7d", "7 days", TimeSpan.FromDays(7)),
        (UntilChoice, "until the date below", null),
    ];

    public string? InstanceId { get; set; }
    public string? Scope { get; set; }
    public string? For { get; set; }
    public string? Until { get; set; }
    public string? Reason { get; set; }
    public string? SilenceId { get; set; }

    public static string Field(string form, string property) => $"{form}.{property}";

    /// <summary>The request the form asks for, or null with what could not be read next to its field.</summary>
    public SilenceRequest? ToRequest(SilenceKind kind, string form, DateTimeOffset now, FormErrors errors)
    {
        long? instanceId = null;
        string? environment = null, tag = null;
        if (kind == SilenceKind.Silence)
        {
            var scope = Scope ?? "";
            if (scope.StartsWith(InstanceScope, StringComparison.Ordinal)) instanceId = QueryNumber.Id(scope[InstanceScope.Length..]);
            else if (scope.StartsWith(EnvironmentScope, StringComparison.Ordinal)) environment = scope[EnvironmentScope.Length..];
            else if (scope.StartsWith(TagScope, StringComparison.Ordinal)) tag = scope[TagScope.Length..];
            if (instanceId is null && environment is null && tag is null)
                errors.Add(Field(form, nameof(Scope)), "Choose what to silence.");
        }
        else if ((instanceId = QueryNumber.Id(InstanceId)) is null)
            errors.Add(Field(form, nameof(Reason)), "Open this form from the instance's alert.");

        DateTimeOffset? expiresAt = null;
        if (kind != SilenceKind.Acknowledgement)
        {
            var period = kind == SilenceKind.Snooze ? Periods.FirstOrDefault(p => p.Value == (For ?? DefaultPeriod)) : (UntilChoice, "", null);
            if (period.Value is null) errors.Add(Field(form, nameof(For)), "Choose how long.");
            else if (period.Length is { } length) expiresAt = now + length;
            else if (WaiverGrant.TryParseMoment(Until, out var until)) expiresAt = until;
            else errors.Add(Field(form, nameof(Until)), WaiverGrant.MomentRule);
        }
        return errors.Any ? null : new SilenceRequest(kind, instanceId, environment, tag, Reason ?? "", expiresAt);
    }

    /// <summary>The form field a server refusal (<see cref="ArgumentException.ParamName"/>) is about.</summary>
    public string FieldOf(string form, ArgumentException refused) => refused.ParamName switch
    {
        "reason" => Field(form, nameof(Reason)),
        "expiresAt" => Field(form, form == "Snooze" && For != UntilChoice ? nameof(For) : nameof(Until)),
        _ when form == "Silence" => Field(form, nameof(Scope)),
        _ => Field(form, nameof(Reason)),
    };
}

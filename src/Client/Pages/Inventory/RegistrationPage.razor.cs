using IfiDashboard.Client.Components;
using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Shared.Snapshots;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages.Inventory;

/// <summary>
/// Registers an instance (/inventory/new) or edits one (/inventory/{id}). "Test connection" runs the collector's
/// probes once on the values in the form, saved or not, and shows each outcome; "Save" stores them.
/// </summary>
public partial class RegistrationPage
{
    [Inject] IInventoryEditor Inventory { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;

    [Parameter] public long? Id { get; set; }
    [SupplyParameterFromForm(FormName = "registration")] public RegistrationForm? Form { get; set; }
    /// <summary>Present when rendered by the server; lets a missing instance answer 404, not 200.</summary>
    [CascadingParameter] public HttpContext? HttpContext { get; set; }

    readonly FormErrors _errors = new();
    InstanceSnapshot? _test;
    string? _testError;
    string? _loadError;
    string? _message;
    /// <summary>The page of the registration that already has the name or the server, when that refused the save.</summary>
    string? _existingLink;
    bool _failed;
    bool _notFound;
    DateTimeOffset? _retiredAt;
    string? _storedName;

    bool IsNew => Id is null;
    string Title => IsNew ? "Register an instance" : $"Edit {_storedName ?? $"instance {Id}"}";

    protected override async Task OnInitializedAsync()
    {
        if (Id is not { } id)
        {
            Form ??= new RegistrationForm();
            return;
        }
        try
        {
            var stored = await Inventory.GetAsync(id, PageClosed);
            if (stored is null)
            {
                _notFound = true;
                if (HttpContext is { Response.HasStarted: false } http) http.Response.StatusCode = StatusCodes.Status404NotFound;
                return;
            }
            _storedName = stored.Name;
            _retiredAt = stored.RetiredAt;
            // A posted form is kept as typed; only a fresh page starts from the stored registration.
            Form ??= RegistrationForm.From(stored);
        }
        catch (Exception e)
        {
            _loadError = Failures.Logged("Reading a registration", e);
        }
    }

    async Task SubmitAsync()
    {
        if (Form is null || _notFound || _retiredAt is not null) return;
        var registration = Form.ToRegistration(Id ?? 0, _errors);
        if (registration is null)
        {
            Fail("Correct the fields marked below.");
            return;
        }
        if (Form.Command == RegistrationForm.Test)
        {
            await TestAsync(registration);
            return;
        }
        InventoryResult result;
        try
        {
            result = IsNew
                ? await Inventory.RegisterAsync(registration, CancellationToken.None)
                : await Inventory.UpdateAsync(registration, CancellationToken.None);
        }
        catch (Exception e)
        {
            Fail($"The instance could not be saved: {Failures.Logged("Saving a registration", e)}");
            return;
        }
        if (result.Id is not { } savedId)
        {
            _errors.Add(RegistrationForm.FieldOfEditor(result.Field), result.Error ?? "Refused.");
            _existingLink = result.ExistingLink;
            Fail("Not saved: correct the fields marked below.");
            return;
        }
        Navigation.NavigateTo(IsNew
            ? InventoryMessages.Registered(savedId)
            : InventoryMessages.Updated(savedId));
    }

    async Task TestAsync(Shared.Inventory.InstanceRegistration registration)
    {
        try
        {
            _test = await Inventory.TestConnectionAsync(registration, CancellationToken.None);
            _message = "Connection tested with the values in the form; nothing was saved.";
        }
        catch (Exception e)
        {
            _testError = Failures.Logged("Testing a connection", e);
        }
    }

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }
}

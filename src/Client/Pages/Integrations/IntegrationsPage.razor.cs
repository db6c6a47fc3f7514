using IfiDashboard.Client.Components;
using IfiDashboard.Client.Components.Forms;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Http;

namespace IfiDashboard.Client.Pages.Integrations;

/// <summary>
/// Change webhook subscriptions for administrators: the list, an add form that shows the new secret once (on the answer
/// to the post, never in a redirect's URL), and a delete that asks first (<c>?delete=id</c>, a safe GET).
/// </summary>
public partial class IntegrationsPage
{
    [Inject] IChangeWebhooksEditor Webhooks { get; set; } = null!;
    [Inject] NavigationManager Navigation { get; set; } = null!;
    [CascadingParameter] HttpContext? HttpContext { get; set; }

    [SupplyParameterFromForm(FormName = "change-webhook")] public ChangeWebhookForm? Form { get; set; }
    [SupplyParameterFromForm(FormName = "delete-change-webhook")] public ChangeWebhookDeletion? Deletion { get; set; }
    [SupplyParameterFromQuery(Name = "delete")] public string? DeleteText { get; set; }
    [SupplyParameterFromQuery(Name = "done")] public string? Done { get; set; }

    readonly FormErrors _errors = new();
    IReadOnlyList<ChangeWebhookItem>? _items;
    IReadOnlyList<string> _checked = [];
    ChangeWebhookItem? _confirmDelete;
    ChangeWebhookItem? _created;
    string? _secret;
    string? _message;
    bool _failed;

    protected override async Task OnInitializedAsync()
    {
        Form ??= new ChangeWebhookForm();
        Deletion ??= new ChangeWebhookDeletion();
        _items = await Webhooks.ListAsync(PageClosed);
        _message = Done == "deleted" ? "The change webhook was deleted: nothing more is sent to it." : null;
        if (QueryNumber.Id(DeleteText) is { } id)
        {
            _confirmDelete = _items.FirstOrDefault(i => i.Id == id);
            if (_confirmDelete is null) Fail($"No change webhook #{id} is active: it may already be deleted.");
        }
    }

    async Task CreateAsync()
    {
        if (Form is null) return;
        _checked = HttpContext?.Request.HasFormContentType == true
            ? HttpContext.Request.Form[ChangeWebhookForm.EventField].Where(e => e is not null).Select(e => e!).ToList()
            : [];
        if (_checked.Count == 0)
        {
            _errors.Add("events", "Choose at least one event.");
            Fail("The change webhook was not added: correct the fields marked below.");
            return;
        }
        var result = await Webhooks.CreateAsync(Form.Name, Form.Url, _checked, CancellationToken.None);
        foreach (var (field, message) in result.Errors)
            _errors.Add(field.StartsWith("events", StringComparison.Ordinal) ? "events" : field, message);
        if (result.Created is null)
        {
            Fail(_errors.Any ? "The change webhook was not added: correct the fields marked below." : $"A change webhook named '{Form.Name}' exists already.");
            return;
        }
        (_created, _secret) = (result.Created, result.Secret);
        _items = await Webhooks.ListAsync(PageClosed);
        Form = new ChangeWebhookForm();
        _checked = [];
        _message = $"Change webhook '{result.Created.Name}' added: it gets the changes recorded from now on.";
    }

    async Task DeleteAsync()
    {
        if (QueryNumber.Id(Deletion?.Id) is not { } id || !await Webhooks.DeleteAsync(id, CancellationToken.None))
        {
            Fail("No change webhook was deleted: it may already be gone.");
            return;
        }
        Navigation.NavigateTo("integrations?done=deleted");
    }

    void Fail(string message)
    {
        _message = message;
        _failed = true;
    }
}

using IfiDashboard.Shared.Inventory;
using Microsoft.AspNetCore.Components;

namespace IfiDashboard.Client.Pages.Collectors;

/// <summary>
/// Collector liveness for administrators (each collector's last contact, outbox, instances and polls) and the rules
/// that assign instances to collectors: Preview shows what a text of rules assigns, Save keeps it (audited).
/// </summary>
public partial class CollectorsPage
{
    [Inject] ICollectorsView Collectors { get; set; } = null!;
    [Inject] ICollectorAssignmentsEditor Assignments { get; set; } = null!;

    [SupplyParameterFromForm(FormName = "assignments")] public AssignmentsForm? Form { get; set; }

    IReadOnlyList<CollectorItem>? _items;
    AssignmentsText? _rules;
    AssignmentsOutcome? _outcome;
    string? _message;
    bool _failed;

    protected override async Task OnInitializedAsync()
    {
        _rules = await Assignments.ReadAsync(PageClosed);
        _items = await Collectors.ReadAsync(PageClosed);
    }

    async Task SubmitAsync()
    {
        if (Form is null)
            return;
        var save = Form.Command == AssignmentsForm.Save;
        _outcome = await Assignments.SubmitAsync(Form.Text, save, CancellationToken.None);
        if (_outcome.Errors.Count > 0)
            (_message, _failed) = ($"{Components.Quantities.Plural(_outcome.Errors.Count, "refusal")}: nothing was saved.", true);
        else
            _message = save ? "Saved: collectors lease by these rules from their next lease." : "Preview only: nothing is saved until you press Save.";
        _rules = await Assignments.ReadAsync(PageClosed);
    }

    /// <summary>The text the form shows: what was submitted, or the saved rules.</summary>
    string? FormText => Form?.Text ?? _rules?.Saved;

    static string Describe(CollectorAssignment rule) => CollectorAssignments.Format([rule]);
}

namespace IfiDashboard.Client.Pages.Collectors;

/// <summary>What the collectors page reads; the server implements it over the store's collectors table.</summary>
public interface ICollectorsView
{
    Task<IReadOnlyList<CollectorItem>> ReadAsync(CancellationToken ct);
}

/// <summary>
/// One collector: when it was last heard from (a lease request, a delivered snapshot), what it reported of itself, the
/// instances it keeps and its polls stored in the last day; silent when not heard from for the takeover delay.
/// </summary>
public sealed record CollectorItem(string Name, string? Version, DateTimeOffset LastSeenAt, DateTimeOffset? LastLeaseAt,
    DateTimeOffset? LastDeliveryAt, long? OutboxDepth, long Assigned, long PolledLastDay, bool Silent);

/// <summary>
/// The assignment rules as the collectors page edits them, one a line (<see cref="Shared.Inventory.CollectorAssignments.Format"/>);
/// the server checks them with the API's rule set.
/// </summary>
public interface ICollectorAssignmentsEditor
{
    Task<AssignmentsText> ReadAsync(CancellationToken ct);

    /// <summary>Checks the text, and previews it; saves it too when <paramref name="save"/> and nothing is refused.</summary>
    Task<AssignmentsOutcome> SubmitAsync(string? text, bool save, CancellationToken ct);
}

/// <summary>The configured rules (read-only, applied first) and the saved ones, as text.</summary>
public sealed record AssignmentsText(string Configured, string Saved);

/// <summary>What a submitted text came to: the refusals (nothing saved), or the preview, and whether it was saved.</summary>
public sealed record AssignmentsOutcome(IReadOnlyList<Shared.Inventory.AssignmentError> Errors, Shared.Inventory.AssignmentPreview? Preview, bool Saved);

/// <summary>The assignment form's fields: the rules as text, and which button was pressed.</summary>
public sealed class AssignmentsForm
{
    public const string Preview = "preview";
    public const string Save = "save";

    public string? Text { get; set; }
    public string? Command { get; set; }
}

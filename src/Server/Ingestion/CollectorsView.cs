using IfiDashboard.Client.Pages.Collectors;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Options;
using IfiDashboard.Store.Ingestion;

namespace IfiDashboard.Server.Ingestion;

/// <summary>The collectors page's view of the store: what <c>GET /api/v1/collectors</c> answers.</summary>
public sealed class CollectorsView(CollectorStore collectors, IOptionsMonitor<IngestionOptions> options) : ICollectorsView
{
    public async Task<IReadOnlyList<CollectorItem>> ReadAsync(CancellationToken ct) =>
        [.. (await collectors.ListAsync(options.CurrentValue.TakeoverDelay, ct)).Select(c => new CollectorItem(c.Name, c.Version,
            c.LastSeenAt, c.LastLeaseAt, c.LastDeliveryAt, c.OutboxDepth, c.Assigned, c.PolledLastDay, c.Silent))];
}

/// <summary>The collectors page's assignment form over <see cref="AssignmentStore"/>, with the API's rule set.</summary>
public sealed class CollectorAssignmentsEditor(AssignmentStore assignments) : ICollectorAssignmentsEditor
{
    public async Task<AssignmentsText> ReadAsync(CancellationToken ct)
    {
        var rules = await assignments.ReadAsync(ct);
        return new(CollectorAssignments.Format(rules.Configured), CollectorAssignments.Format(rules.Saved));
    }

    public async Task<AssignmentsOutcome> SubmitAsync(string? text, bool save, CancellationToken ct)
    {
        var (rules, errors) = CollectorAssignments.Parse(text);
        if (errors.Count == 0)
            errors = CollectorAssignments.Check(rules);
        if (errors.Count > 0)
            return new(errors, null, false);
        if (save)
            await assignments.SaveAsync(rules, ct);
        return new([], await assignments.PreviewAsync(rules, ct), save);
    }
}

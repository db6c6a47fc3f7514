using IfiDashboard.Client.Components;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Pages.Instances;

/// <summary>
/// One line of the instance grid, with its cell texts computed once: the table and the CSV export both read these,
/// so the export cannot drift from what is on screen.
/// </summary>
public sealed record InstanceGridRow
{
    public required long Id { get; init; }
    public required string Name { get; init; }
    public required string Host { get; init; }
    /// <summary>Null for a named instance found through the SQL Server Browser.</summary>
    public required int? Port { get; init; }
    public required ComplianceStatus Status { get; init; }
    public required bool IsStale { get; init; }
    public required string Environment { get; init; }
    public required string Owner { get; init; }
    public required IReadOnlyList<string> Tags { get; init; }
    public required int MajorVersion { get; init; }
    public required string Version { get; init; }
    public required IfiState Ifi { get; init; }
    public required string? IfiUnknownReason { get; init; }
    public required DesiredState Desired { get; init; }
    public required TimeSpan TimeLost30Days { get; init; }
    /// <summary>Growth time in the 30 days whose IFI state is unknown: the lost figure is then unknown or a lower bound.</summary>
    public TimeSpan IfiUnknown30Days { get; init; }
    /// <summary>No growth evidence could be seen while IFI was not on: the 30-day figure is unknown (<see cref="TimeLost.WithoutEvidence"/>).</summary>
    public bool WithoutEvidence { get; init; }
    /// <summary>The instance's restore wait (<see cref="IfiDashboard.Compliance.Restore.InstanceRestoreRisk.Slowest"/>), in minutes.</summary>
    public required double RestoreMinutes { get; init; }
    public required DateTimeOffset? LastPollAt { get; init; }
    public required string Explanation { get; init; }
    public required string EngineServiceAccount { get; init; }
    public IfiDashboard.Compliance.Remediation.RemediationPending? RemediationPending { get; init; }
    /// <summary>"payments-ag (primary), ledger-ag (secondary)": the availability groups it is a replica of; empty for none.</summary>
    public string AvailabilityGroups { get; init; } = "";

    public string IfiText => Ifi switch
    {
        IfiState.Enabled => "Enabled",
        IfiState.Disabled => "Disabled",
        _ => IfiUnknownReason is { Length: > 0 } reason ? $"Unknown: {reason}" : "Unknown",
    };

    /// <summary>"2019 RTM CU28": the grid's narrow form; the full name and build are in <see cref="Version"/>.</summary>
    public string ShortVersion
    {
        get
        {
            var text = Version.StartsWith("SQL Server ", StringComparison.Ordinal) ? Version["SQL Server ".Length..] : Version;
            var build = text.IndexOf(" (", StringComparison.Ordinal);
            return build > 0 ? text[..build] : text;
        }
    }

    public string StatusText => Components.StatusText.Label(Status) + (IsStale ? " (stale)" : "");

    public static InstanceGridRow From(InstanceAssessment a) => new()
    {
        Id = a.Registration.Id,
        Name = a.Registration.Name,
        Host = a.Registration.Host,
        Port = a.Registration.Port,
        Status = a.Compliance.Status,
        IsStale = a.Compliance.IsStale,
        Environment = a.Registration.Environment,
        Owner = a.Registration.Owner ?? "",
        Tags = a.Registration.Tags,
        MajorVersion = a.Facts.MajorVersion,
        Version = InstanceFormat.Version(a.State, a.Facts.EngineEdition),
        Ifi = a.State.IfiState,
        IfiUnknownReason = a.State.IfiUnknownReason,
        Desired = a.Compliance.Policy.Desired,
        TimeLost30Days = a.TimeLost.Last30Days,
        IfiUnknown30Days = a.TimeLost.IfiUnknownLast30Days,
        WithoutEvidence = a.TimeLost.WithoutEvidence,
        RestoreMinutes = a.Restore.Slowest?.ExtraMinutes ?? 0,
        LastPollAt = a.State.LastPollAt,
        Explanation = a.Compliance.Explanation,
        EngineServiceAccount = a.State.EngineServiceAccount ?? "",
        RemediationPending = a.RemediationPending,
        AvailabilityGroups = string.Join(", ", a.Facts.AvailabilityGroups.Select(g => $"{g.Name} ({g.LocalRole.ToLowerInvariant()})")),
    };
}

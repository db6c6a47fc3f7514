namespace IfiDashboard.Compliance.Facts;

/// <summary>Everything known about one instance, bundled so that file, event and history rows cannot be mismatched.</summary>
public sealed record InstanceFactSet
{
    public required InstanceFacts Instance { get; init; }
    public IReadOnlyList<DatabaseFileFacts> Files { get; init; } = [];
    public IReadOnlyList<DatabaseEncryptionFacts> Encryption { get; init; } = [];
    public IReadOnlyList<GrowthEventFacts> GrowthEvents { get; init; } = [];

    /// <summary>Polls of this instance, in any order.</summary>
    public IReadOnlyList<PollObservation> History { get; init; } = [];

    public IReadOnlySet<int> TdeDatabaseIds() =>
        Encryption.Where(e => e.PreventsDataFileIfi).Select(e => e.DatabaseId).ToHashSet();
}

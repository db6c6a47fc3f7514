using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;

namespace IfiDashboard.Compliance.Zeroing;

/// <summary>Judges an instance's growth events, using the IFI flag at each event's time, not today's.</summary>
public sealed class GrowthEventAssessor
{
    readonly InstanceFacts instance;
    readonly IReadOnlySet<int> tdeDatabaseIds;
    readonly IfiHistory history;

    public GrowthEventAssessor(InstanceFactSet facts)
    {
        instance = facts.Instance;
        // TDE history is not collected: today's encryption state stands in for the event's.
        tdeDatabaseIds = facts.TdeDatabaseIds();
        history = new IfiHistory(facts.History, facts.Instance.Ifi.State);
    }

    /// <summary>Every autogrowth event of the set (shrinks are skipped), in the set's order.</summary>
    public static IReadOnlyList<GrowthEventAssessment> AssessAll(InstanceFactSet facts)
    {
        var assessor = new GrowthEventAssessor(facts);
        return facts.GrowthEvents.Where(e => e.IsAutoGrowth).Select(assessor.Assess).ToList();
    }

    public GrowthEventAssessment Assess(GrowthEventFacts growth)
    {
        if (!growth.IsAutoGrowth)
            throw new ArgumentException($"Event class {growth.EventClass} is not an autogrowth (92 or 93).", nameof(growth));

        var ifiThen = history.At(growth.StartTime);
        var type = growth.IsDataGrowth ? FileType.Rows : FileType.Log;
        var decision = EffectiveIfi.Decide(ifiThen.State, instance.MajorVersion, instance.IsAzurePaas, type,
            tdeDatabaseIds.Contains(growth.DatabaseId), growth.GrowthPages);

        return new GrowthEventAssessment
        {
            InstanceId = instance.InstanceId,
            Event = growth,
            Zeroing = Classify(decision, growth.IsDataGrowth, instance.IfiForbiddenByPolicy),
            FileIfi = decision,
            InstanceIfi = ifiThen,
        };
    }

    static GrowthZeroing Classify(FileIfiDecision decision, bool isData, bool forbidden) => (decision.Ifi, isData) switch
    {
        (FileIfi.NotApplicable, _) => GrowthZeroing.NotApplicable,
        (FileIfi.Unknown, _) => GrowthZeroing.IfiUnknown,
        (FileIfi.On, true) => GrowthZeroing.DataNotZeroed,
        (FileIfi.On, false) => GrowthZeroing.LogNotZeroed,
        (FileIfi.Off, true) when decision.Reason == FileIfiReason.TdeEncrypted => GrowthZeroing.DataZeroedByTde,
        (FileIfi.Off, true) when forbidden => GrowthZeroing.DataZeroedByPolicy,
        (FileIfi.Off, true) => GrowthZeroing.DataZeroedWithoutIfi,
        _ => GrowthZeroing.LogZeroed,
    };
}

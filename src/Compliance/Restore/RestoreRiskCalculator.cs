using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Files;
using IfiDashboard.Compliance.Zeroing;

namespace IfiDashboard.Compliance.Restore;

public static class RestoreRiskCalculator
{
    const int TempDbId = 2;

    /// <summary>Uses the instance's measured (or assumed) rates: see <see cref="ZeroingRateEstimator"/>.</summary>
    public static InstanceRestoreRisk ForInstance(InstanceFactSet facts, ZeroingRateOptions options) =>
        ForInstance(facts, ZeroingRateEstimator.Estimate(facts, options), new Volumes(options.MountRoots));

    public static InstanceRestoreRisk ForInstance(InstanceFactSet facts, InstanceZeroingRates rates, Volumes volumes)
    {
        var tde = facts.TdeDatabaseIds();
        var files = facts.Files
            .Select(f => (File: f, Volume: volumes.Of(f).Name))
            .Select(f => new RatedFile(f.File, EffectiveIfi.ForFile(facts.Instance, f.File, tde), f.Volume,
                rates.ForVolume(f.Volume)))
            .ToList();

        // tempdb is recreated at each start, never restored; its growth stalls still count below.
        var databases = files
            .Where(f => f.File.DatabaseId != TempDbId)
            .GroupBy(f => f.File.DatabaseId)
            .Select(g => ForDatabase(facts.Instance, g.ToList(), tde.Contains(g.Key)))
            .ToList();
        var stalls = files
            .Where(f => f.File.Type == FileType.Rows)
            .Select(f => Stall(facts.Instance, f))
            .ToList();
        return new InstanceRestoreRisk(facts.Instance.InstanceId, databases, stalls) { Volumes = volumes.Of(facts.Files) };
    }

    static DatabaseRestoreRisk ForDatabase(InstanceFacts instance, IReadOnlyList<RatedFile> files, bool tde)
    {
        var data = files.Where(f => f.File.Type == FileType.Rows).ToList();
        var zeroedData = data.Where(f => f.Decision.Ifi is FileIfi.Off or FileIfi.Unknown).ToList();
        var logs = files.Where(f => f.File.Type == FileType.Log && f.Decision.Ifi != FileIfi.NotApplicable).ToList();
        var counted = zeroedData.Concat(logs).ToList();
        var allZeroing = WallClockSeconds(counted);
        var logZeroing = WallClockSeconds(logs);

        return new DatabaseRestoreRisk
        {
            InstanceId = instance.InstanceId,
            InstanceName = instance.Name,
            DatabaseId = files[0].File.DatabaseId,
            DatabaseName = files[0].File.DatabaseName,
            DataBytes = data.Sum(f => f.File.SizeBytes),
            ZeroedDataBytes = zeroedData.Sum(f => f.File.SizeBytes),
            ExtraSeconds = Math.Max(0, allZeroing - logZeroing),
            ZeroedVolumes = zeroedData.Select(f => f.Volume).Distinct().Count(),
            LogBytes = logs.Sum(f => f.File.SizeBytes),
            LogZeroingSeconds = logZeroing,
            RateAssumed = counted.Any(f => f.Rate.IsAssumed),
            IfiUnknown = data.Any(f => f.Decision.Ifi == FileIfi.Unknown),
            TdeEncrypted = tde,
        };
    }

    /// <summary>
    /// A restore that creates its files initialises them with one thread per volume (SQL Server 2000 Books Online,
    /// "Parallel Backup and Restore"; not restated for later versions, see docs/sqlserver-reference.md section 2b):
    /// files on one volume one after another, volumes side by side. So the zeroing lasts as long as its slowest volume.
    /// </summary>
    static double WallClockSeconds(IEnumerable<RatedFile> zeroed) => zeroed
        .GroupBy(f => f.Volume)
        .Select(volume => volume.Sum(f => f.Rate.SecondsToZero(f.File.SizeBytes)))
        .DefaultIfEmpty(0)
        .Max();

    static FileGrowthStall Stall(InstanceFacts instance, RatedFile file)
    {
        var incrementBytes = file.File.NextGrowthPages is { } pages ? Pages.ToBytes(pages) : (long?)null;
        double? stall = incrementBytes is not { } bytes ? null
            : file.Decision.Ifi is FileIfi.On or FileIfi.NotApplicable ? 0
            : file.Rate.SecondsToZero(bytes);
        return new FileGrowthStall
        {
            InstanceId = instance.InstanceId,
            InstanceName = instance.Name,
            DatabaseId = file.File.DatabaseId,
            DatabaseName = file.File.DatabaseName,
            LogicalName = file.File.LogicalName,
            Ifi = file.Decision,
            IncrementBytes = incrementBytes,
            StallSeconds = stall,
            RateAssumed = stall > 0 && file.Rate.IsAssumed,
            VolumeAvailableBytes = file.File.Volume?.AvailableBytes,
        };
    }

    sealed record RatedFile(DatabaseFileFacts File, FileIfiDecision Decision, string Volume, ZeroingRate Rate);
}

using System.Security.Cryptography;
using System.Text.Json;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// A digest of everything an assessment computes per instance and per window: the benchmark shows with it that a change
/// meant to save time or memory leaves the numbers alone on the 10,000-instance store, and the tests that an
/// incremental build equals a build of every instance.
/// </summary>
public static class AssessmentFingerprint
{
    public static string Of(FleetAssessment assessment)
    {
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var instance in assessment.Instances)
            hash.AppendData(JsonSerializer.SerializeToUtf8Bytes(instance));
        foreach (var window in new[] { assessment.Last7Days, assessment.Last30Days, assessment.Last90Days })
            hash.AppendData(JsonSerializer.SerializeToUtf8Bytes(window));
        var lost = string.Join(" / ", new[] { assessment.Last7Days, assessment.Last30Days, assessment.Last90Days }
            .Select(w => $"{w.Fleet.TimeLostMicroseconds} µs lost in {w.Fleet.GrowthEvents} events"));
        return $"sha256 {Convert.ToHexString(hash.GetHashAndReset())[..16]}; 7/30/90 days: {lost}";
    }
}

using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using IfiDashboard.Client.Pages.Reports;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Server.Reports;
using IfiDashboard.Shared.Snapshots;
using IfiDashboard.Store.Reports;
using IfiDashboard.Server.Compliance;

namespace IfiDashboard.Server.Reports;

/// <summary>Builds the <see cref="EvidenceReport"/> of a period from one view of the store (<see cref="EvidenceReportReader"/>).</summary>
public sealed class EvidenceReports(EvidenceReportReader reader, TimeProvider time, IFleetAssessments assessments, WindowedZeroing zeroing,
    EvidenceSigningKey signing)
    : IEvidenceReportSource
{
    public const string DmvEvidence = "services DMV (sys.dm_server_services.instant_file_initialization_enabled)";
    public const string ErrorLogEvidence = "error log (the start-up line about instant file initialization)";
    public const string TraceFlagEvidence = "trace flag 1806 (DBCC TRACESTATUS), which turns IFI off whatever the services DMV says";
    public const string NoEvidence = "none";

    static readonly JsonSerializerOptions Json = new(JsonSerializerDefaults.Web);

    public async Task<EvidenceReport> BuildAsync(DateTimeOffset from, DateTimeOffset to, string? environment, string? tag, CancellationToken ct)
    {
        // The period's time lost, the figures the time-lost API gives for it; read before the store's view below is
        // opened, since the first assessment of a starting server writes the day's statuses, which the view must see.
        var fleet = await assessments.GetAsync(ct);
        var lost = await zeroing.ReportAsync(fleet, from, to, ct);

        // One view of the store: the sections must agree with each other.
        await using var store = await reader.OpenAsync(from, to, ct);

        var instances = (await store.InstancesAsync(ct))
            .Where(i => environment is null || string.Equals(i.Environment, environment, StringComparison.OrdinalIgnoreCase))
            .Where(i => tag is null || i.Tags.Contains(tag, StringComparer.OrdinalIgnoreCase))
            .ToList();
        var inScope = instances.Select(i => i.Id).ToHashSet();

        var versions = await store.PolicyVersionsAsync(ct);
        // The version in force when the period began, and each one saved during it.
        var inForceAtStart = versions.LastOrDefault(v => v.CreatedAt <= from);
        var policy = versions
            .Where(v => v == inForceAtStart || v.CreatedAt > from)
            .Select(v => new EvidencePolicyVersion((int)v.Version, v.Author, v.CreatedAt,
                v == inForceAtStart ? from : v.CreatedAt, v.Rules, EvidenceSentences.Rules(v.ParsedRules)))
            .ToList();

        var names = instances.ToDictionary(i => i.Id, i => i.Name);
        var waivers = (await store.WaiversAsync(ct))
            .Where(w => inScope.Contains(w.InstanceId))
            .Select(w => new EvidenceWaiver(w.Id, w.InstanceId, names[w.InstanceId], w.Reason, w.Author, w.NeedsApproval != 0, w.ApprovedBy,
                w.GrantedAt, w.ExpiresAt, w.RevokedAt, w.RevokedBy))
            .ToList();

        var daily = await store.DailyStatusesAsync(ct);
        // A day on which the store took any instance's assessment had a server running: a silent instance then is the
        // collectors', not an outage's.
        var storeDays = daily.Select(d => d.Day).ToHashSet();
        var statuses = daily.ToLookup(d => d.InstanceId);

        var polls = await store.LastPollsAsync(ct);
        var previousPolls = await store.LastPollsBeforeAsync(ct);

        var observedUntil = Min(to, time.GetUtcNow());
        var (firstDay, endDay) = (DateOnly.FromDateTime(from.UtcDateTime), DateOnly.FromDateTime(to.UtcDateTime));
        var coverage = new Dictionary<long, IReadOnlyList<EvidenceDay>>();
        var byId = instances.ToDictionary(i => i.Id);
        IReadOnlyList<EvidenceDay> Cover(EvidenceInstanceRow i, IReadOnlyList<DateTimeOffset> times) => EvidenceCoverage.Days(firstDay, endDay, observedUntil,
            new EvidenceCoverage.Watch(i.CreatedAt, i.RetiredAt, TimeSpan.FromSeconds(Math.Max(1, i.PollIntervalSeconds)),
                previousPolls.TryGetValue(i.Id, out var previous) ? previous : null, times),
            storeDays, statuses[i.Id].ToDictionary(d => d.Day, d => d.Status));
        await foreach (var (instanceId, times) in store.PollTimesByInstanceAsync(inScope, ct))
            coverage[instanceId] = Cover(byId[instanceId], times);

        var evidence = instances.Select(i =>
        {
            var days = coverage.TryGetValue(i.Id, out var covered) ? covered : Cover(i, []);
            var byStatus = days.Where(d => d.Status is not null).GroupBy(d => d.Status!).OrderBy(g => g.Key, StringComparer.Ordinal)
                .ToDictionary(g => g.Key, g => g.Count());
            var byCoverage = days.GroupBy(d => d.Coverage).OrderBy(g => g.Key).ToDictionary(g => g.Key.ToString(), g => g.Count());
            var poll = polls.GetValueOrDefault(i.Id);
            return new EvidenceInstance(i.Id, i.Name, i.ExternalKey, i.Environment, i.Owner, byStatus,
                byStatus.Keys.Select(Enum.Parse<ComplianceStatus>).OrderByDescending(DailyComplianceSeries.Badness)
                    .Select(status => status.ToString()).FirstOrDefault(),
                byCoverage, days,
                poll is null ? null : new EvidencePoll(poll.FinishedAt, poll.Collector, poll.Outcome, poll.IfiState, IfiEvidence(poll)));
        }).ToList();

        var changes = (await store.ChangesAsync(ct))
            .Select(c => new EvidenceChange(c.Id, c.OccurredAt, c.Actor, c.RemoteAddress, c.Action, c.Target, c.Before, c.After,
                EvidenceSentences.Change(c.Actor, c.Action, c.Target, c.Before, c.After)))
            .ToList();

        var business = EvidenceBusinessCase.From(BusinessCase.Build(fleet.Instances.Where(i => inScope.Contains(i.Registration.Id)), lost));

        var period = new EvidencePeriod(from, to, environment, tag, IsClosed: to <= time.GetUtcNow());
        return new EvidenceReport(period, policy, waivers, evidence, changes, business,
            Manifest(period, policy, waivers, evidence, changes, business));
    }

    /// <summary>
    /// The hash of each section as the JSON API serializes it, and of the six hashes joined by newlines: a report made
    /// again compares section by section. The server's key signs the manifest's text.
    /// </summary>
    EvidenceManifest Manifest(EvidencePeriod period, IReadOnlyList<EvidencePolicyVersion> policy, IReadOnlyList<EvidenceWaiver> waivers,
        IReadOnlyList<EvidenceInstance> instances, IReadOnlyList<EvidenceChange> changes, EvidenceBusinessCase business)
    {
        var sections = new SortedDictionary<string, string>(StringComparer.Ordinal)
        {
            ["period"] = Sha256(JsonSerializer.Serialize(period, Json)),
            ["policyVersions"] = Sha256(JsonSerializer.Serialize(policy, Json)),
            ["waivers"] = Sha256(JsonSerializer.Serialize(waivers, Json)),
            ["instances"] = Sha256(JsonSerializer.Serialize(instances, Json)),
            ["changes"] = Sha256(JsonSerializer.Serialize(changes, Json)),
            ["businessCase"] = Sha256(JsonSerializer.Serialize(business, Json)),
        };
        var report = Sha256(string.Join('\n', sections.Select(s => $"{s.Key} {s.Value}")));
        return new EvidenceManifest(sections, report, signing.Fingerprint,
            Convert.ToBase64String(signing.Sign(EvidenceManifest.TextOf(sections, report))));
    }

    /// <summary>
    /// What decided the poll's IFI state (<see cref="IfiObservation.From"/>): trace flag 1806 where the engine service
    /// holds the right (the DMV says Y) yet the state is off, as the assessment reads it (InstanceAssessor); else the
    /// error log's start-up line on builds without the DMV column, else the DMV.
    /// </summary>
    static string IfiEvidence(EvidenceLastPollRow poll) =>
        poll.IfiState == nameof(IfiState.Disabled) && poll.EngineDmvIfi == "Y" ? TraceFlagEvidence
        : poll.FromErrorLog > 0 ? ErrorLogEvidence
        : poll.FromServices > 0 && poll.IfiState != nameof(IfiState.Unknown) ? DmvEvidence
        : NoEvidence;

    static DateTimeOffset Min(DateTimeOffset a, DateTimeOffset b) => a < b ? a : b;

    static string Sha256(string text) => Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)));
}

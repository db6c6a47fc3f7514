using System.Text.Json.Serialization;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Server.Http;

namespace IfiDashboard.Server.Api.Policy;

/// <summary>The policy in force: its version, its rules in order (the first that matches decides) and the waiver rules.</summary>
/// <param name="WaiversNeedApproval">Whether a waiver granted now waits for a second identity's approval (Auth:WaiversNeedApproval).</param>
/// <param name="MaxWaiverDays">The longest waiver an Operator (or a key without <c>admin</c>) may grant or approve (Auth:MaxWaiverDays).</param>
public sealed record PolicyResponse(int Version, IReadOnlyList<PolicyRuleContract> Rules, bool WaiversNeedApproval, int MaxWaiverDays);

/// <summary>
/// One rule: the desired IFI state of the instances whose environment, tags (all of them) and owner match, and, for each
/// host selector given, whose platform, major version, edition or cluster membership is one of those listed.
/// </summary>
/// <param name="Platforms">Windows, Linux, AzureSqlDatabase, AzureSqlManagedInstance (the Azure ones only with desired NotApplicable).</param>
/// <param name="Versions">Releases (2016), ranges (2016-2019) or a release and later (2019+).</param>
/// <param name="Editions">Enterprise, Standard, Developer, Express, Web, Evaluation, BusinessIntelligence.</param>
/// <param name="Clusters">Standalone, FailoverCluster, AvailabilityGroupReplica, AvailabilityGroupPrimary, AvailabilityGroupSecondary.</param>
public sealed record PolicyRuleContract(
    string? Name,
    [property: JsonConverter(typeof(EnumNames<DesiredState>))] DesiredState Desired,
    string? Environment,
    IReadOnlyList<string>? Tags,
    string? Owner,
    IReadOnlyList<string>? Platforms = null,
    IReadOnlyList<string>? Versions = null,
    IReadOnlyList<string>? Editions = null,
    IReadOnlyList<string>? Clusters = null);

/// <summary>The rules to save as the next policy version (they replace the current ones).</summary>
public sealed record SaveRulesRequest(IReadOnlyList<PolicyRuleContract>? Rules);

public sealed record SavedPolicyResponse(int Version);

/// <summary>A waiver to grant: the instance (its external key, or its id), why (a change ticket) and until when.</summary>
public sealed record GrantWaiverRequest(string? Instance, string? Reason, DateTimeOffset? ExpiresAt);

/// <summary>Where a waiver stands: in force, waiting for a second identity's approval, or past its expiry.</summary>
[JsonConverter(typeof(EnumNames<WaiverState>))]
public enum WaiverState
{
    Active,
    AwaitingApproval,
    Expired,
}

/// <summary>A waiver not revoked.</summary>
public sealed record WaiverResponse(
    long Id,
    long InstanceId,
    string InstanceName,
    string? ExternalKey,
    string Reason,
    string Author,
    DateTimeOffset GrantedAt,
    DateTimeOffset ExpiresAt,
    WaiverState State,
    string? ApprovedBy,
    DateTimeOffset? ApprovedAt);

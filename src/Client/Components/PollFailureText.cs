using System.Security.Claims;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Security;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Components;

/// <summary>
/// What a stored poll failure tells whom (docs/security.md): everyone sees its classified reason (unreachable, timeout,
/// TLS / certificate, login failed, ...); the collector's raw client text only Administrators. SqlClient's text tells a
/// closed port, a silent one and a listener that is not SQL Server apart and names hosts and logins, so with it
/// anyone who may register instances and read the page could use the collector as a port scanner.
/// </summary>
public static class PollFailureText
{
    public static bool SeesRawText(ClaimsPrincipal user) => user.HasAtLeast(DashboardRoles.Administrator);

    /// <summary>The message to show: the raw text for an Administrator or a probe that did not fail, else the reason.</summary>
    public static string? Message(OutcomeClass outcome, string? raw, bool seesRawText) =>
        seesRawText || outcome is OutcomeClass.Ok or OutcomeClass.NotApplicable ? raw : outcome.Describe();

    /// <summary>The instance page's polls and probes as <paramref name="user"/> may read them.</summary>
    public static InstanceDetail AsSeenBy(InstanceDetail detail, ClaimsPrincipal user) => SeesRawText(user) ? detail : detail with
    {
        Polls = detail.Polls.Select(p => p with { Message = Message(p.Outcome, p.Message, false) }).ToList(),
        LastProbes = detail.LastProbes
            .Select(p => p.Outcome is OutcomeClass.Ok or OutcomeClass.NotApplicable ? p : p with { Message = p.Outcome.Describe(), SqlErrorNumber = null })
            .ToList(),
    };
}

namespace IfiDashboard.Store.Audit;

/// <summary>The names of what the audit log records, one per kind of change (docs/security.md#audit-log).</summary>
public static class AuditActions
{
    public const string PolicySaved = "policy.saved";
    public const string WaiverGranted = "waiver.granted";
    public const string WaiverRevoked = "waiver.revoked";
    public const string WaiverApproved = "waiver.approved";
    public const string InstanceRegistered = "instance.registered";
    public const string InstanceUpdated = "instance.updated";
    public const string InstanceRetired = "instance.retired";
    /// <summary>A partial CMDB sync: what it stored and which items it rejected (each change has its own entry too).</summary>
    public const string InstancesSyncedPartially = "instances.synced-partially";
    public const string ConnectionTested = "instance.connection-tested";
    public const string ApiKeyIssued = "api-key.issued";
    public const string ApiKeyRevoked = "api-key.revoked";
    public const string TestEmailSent = "alerts.test-email";
    public const string AlertAcknowledged = "alert.acknowledged";
    public const string AlertSnoozed = "alert.snoozed";
    public const string AlertSilenced = "alert.silenced";
    public const string AlertSilenceEnded = "alert.silence-ended";
    public const string AlertSettingsSaved = "alerts.settings-saved";
    public const string SignIn = "sign-in";
    public const string SignInFailed = "sign-in.failed";
    public const string CollectorRefused = "collector.refused";
    public const string ApiKeyRefused = "api-key.refused";
    public const string AuditPruned = "audit.pruned";
    public const string CollectorTookOver = "collector.took-over";
    public const string CollectorAssignmentsSaved = "collector.assignments-saved";
    public const string RemediationGenerated = "remediation.generated";
    public const string VerifyRequested = "instance.verify-requested";
    public const string ChangeWebhookCreated = "change-webhook.created";
    public const string ChangeWebhookDeleted = "change-webhook.deleted";

    /// <summary>The refusals anyone who reaches the server can cause: counted per hour, source and reason
    /// (<see cref="AuditLog.CountRefusalAsync"/>), never an entry each.</summary>
    public static readonly IReadOnlyList<string> Refusals = [SignInFailed, CollectorRefused, ApiKeyRefused];
}

namespace IfiDashboard.Store.Alerts;

public enum OutboxStatus
{
    /// <summary>Not accepted by the relay yet; <c>next_attempt_at</c> says when it is tried (again).</summary>
    Pending,

    /// <summary>Accepted by the relay.</summary>
    Sent,

    /// <summary>Given up on: attempts ran out, or it can never be sent (no recipients). <c>last_error</c> says why.</summary>
    Failed,

    /// <summary>
    /// Never sent: an acknowledgement, snooze or silence covered the instance when the alert was decided
    /// (<c>silence_id</c> says which). Kept so the history loses nothing.
    /// </summary>
    Silenced,
}

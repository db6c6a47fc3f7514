namespace IfiDashboard.Server.Alerts.Delivery;

/// <summary>Exponential backoff: the first retry delay, doubled after each failed attempt, capped.</summary>
public static class RetrySchedule
{
    /// <param name="failedAttempts">Attempts made so far, all failed (1 after the first failure).</param>
    public static TimeSpan Delay(int failedAttempts, DeliveryOptions options)
    {
        var exponent = Math.Clamp(failedAttempts - 1, 0, 30);
        var ticks = Math.Min(options.FirstRetryDelay.Ticks * (double)(1L << exponent), options.MaxRetryDelay.Ticks);
        return TimeSpan.FromTicks((long)ticks);
    }
}

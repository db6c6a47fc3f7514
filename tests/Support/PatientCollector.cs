namespace IfiDashboard.Tests.Support;

/// <summary>
/// Collector limits no loaded test machine reaches, for tests whose instances are not meant to time out. Under the test
/// command's five jobs on two cores a 3-s limit, and even the product's defaults (connect 8 s with two retries, commands
/// 15 s, a 30-s poll deadline), cut off healthy polls: an instance read as Unknown, a trace read as no growth events, a
/// failover never seen and so never mailed.
/// </summary>
public static class PatientCollector
{
    public const int ConnectTimeoutSeconds = 30;
    public const int CommandTimeoutSeconds = 30;
    public const int PollDeadlineSeconds = 90;

    /// <summary>The same limits as the collector's configuration keys (<c>Collector:…</c>) and their values.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Settings { get; } =
    [
        new("Collector:ConnectTimeoutSeconds", ConnectTimeoutSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture)),
        new("Collector:CommandTimeoutSeconds", CommandTimeoutSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture)),
        new("Collector:PollDeadlineSeconds", PollDeadlineSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture)),
    ];
}

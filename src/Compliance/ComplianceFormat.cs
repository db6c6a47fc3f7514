using System.Globalization;

namespace IfiDashboard.Compliance;

/// <summary>
/// Culture-independent text for explanations: they end up in e-mails and logs read across teams, and ':' in a
/// custom date format is otherwise replaced by the current culture's time separator.
/// </summary>
public static class ComplianceFormat
{
    public static string Moment(DateTimeOffset value) =>
        value.ToString("yyyy-MM-dd HH:mm zzz", CultureInfo.InvariantCulture);

    /// <summary>"3 May 2025": how people say when something happened.</summary>
    public static string Day(DateTimeOffset value) =>
        value.ToString("d MMMM yyyy", CultureInfo.InvariantCulture);

    public static string Number(double value, int decimals) =>
        value.ToString("N" + decimals, CultureInfo.InvariantCulture);
}

namespace IfiDashboard.Shared.Hosting;

/// <summary>
/// A setting the host cannot start with. The message names the setting and says what to do, because the host prints
/// it as the whole report of a failed start (src/Collector/Hosting/StartupFailure.cs).
/// </summary>
public sealed class InvalidSettingException(string setting, string advice, Exception? innerException = null)
    : Exception($"{setting}: {advice}", innerException)
{
    public string Setting { get; } = setting;
}

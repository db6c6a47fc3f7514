using IfiDashboard.Store.Alerts.Mail;

namespace IfiDashboard.Server.Alerts.Mail;

/// <summary>The "send test email" message from the settings page.</summary>
public static class TestMailComposer
{
    public static AlertMailContent Compose(DateTimeOffset now, string relay)
    {
        var line = $"IfiDashboard sent this test at {MailFormat.Moment(now)} through {relay}. If you can read it, alert mail reaches you.";
        return new AlertMailContent("[IFI] Test email from IfiDashboard", line + "\n",
            $"<!DOCTYPE html><html><body><p>{MailFormat.Html(line)}</p></body></html>");
    }
}

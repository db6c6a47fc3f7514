namespace IfiDashboard.Store.Alerts;

/// <summary>
/// The part of the <c>Alerts</c> section the store reads: who gets the administrators' mail it writes in its own
/// transactions (a collector silent, back or taking over). The server's <c>AlertOptions</c> is the whole section.
/// </summary>
public class AlertRecipientOptions
{
    /// <summary>Recipients of instances no route matches.</summary>
    public List<string> DefaultTo { get; set; } = [];
}

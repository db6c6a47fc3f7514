namespace IfiDashboard.Store.Dashboard;

/// <summary>Active instances by IFI state; <see cref="Unknown"/> includes those never polled.</summary>
public sealed record FleetCounts(int Total, int Polled, int Enabled, int Disabled, int Unknown);

namespace IfiDashboard.Store.Audit;

/// <summary>Who the current change is by: the server answers from the request (AuditActors), tools and tests as they say.</summary>
public interface IAuditActors
{
    AuditActor Current();
}

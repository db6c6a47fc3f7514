using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// A system view the simulator models. Columns and rows depend on the session's version profile, exactly as the
/// same view differs between real builds; rows are aligned with <see cref="Columns"/>.
/// </summary>
internal abstract class VirtualTable
{
    /// <summary>The name inside its schema, e.g. "dm_server_services".</summary>
    public abstract string Name { get; }

    public virtual string Schema => "sys";

    /// <summary>The one database the object lives in (msdb for backup history); null for a view every database has.</summary>
    public virtual string? HomeDatabase => null;

    /// <summary>A stable fake object id; system objects have negative ids on a real server too.</summary>
    public abstract int ObjectId { get; }

    public virtual bool ExistsIn(VersionProfile profile) => true;

    public abstract IReadOnlyList<ResultColumn> Columns(VersionProfile profile);

    public abstract IEnumerable<object?[]> Rows(SessionContext session);

    /// <summary>
    /// True for a column the view has on some other build. Asking for it here is the emulated behaviour (Msg 207),
    /// not a gap in the simulator, so it is not logged as one.
    /// </summary>
    public virtual bool HasColumnOnSomeBuild(string column) => false;

    /// <summary>The messages a session without the needed permission gets instead of rows; null when allowed.</summary>
    public virtual IReadOnlyList<SqlMessage>? Authorize(SessionContext session) => null;
}

using IfiDashboard.Simulator.Engine.Binding;
using IfiDashboard.Simulator.Engine.Parsing;
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

    /// <summary>
    /// The major version whose catalog a build has: Azure SQL Database and Managed Instance report 12 but carry the
    /// newest catalog, so they have every documented column.
    /// </summary>
    protected static int CatalogMajor(VersionProfile profile) =>
        profile.EngineEdition is 5 or 8 ? int.MaxValue : profile.Major;
}

/// <summary>The FROM-clause calling of a table-valued system function, sys.name(arguments): its name and arguments.</summary>
internal static class SystemFunctionCall
{
    /// <summary>True for name or sys.name.</summary>
    public static bool Names(IReadOnlyList<string> parts, string name) =>
        string.Equals(parts[^1], name, StringComparison.OrdinalIgnoreCase)
        && (parts.Count == 1 || string.Equals(parts[^2], "sys", StringComparison.OrdinalIgnoreCase));

    /// <summary>
    /// Binds exactly <paramref name="count"/> arguments; from <paramref name="firstOptional"/> on, DEFAULT is allowed and
    /// binds to null. Too few (or DEFAULT where a value is needed) is Msg 216, too many Msg 8144, as SQL Server answers.
    /// </summary>
    public static BoundExpr?[] BindArguments(TableSource source, BindScope scope, string name, int count, int firstOptional)
    {
        var arguments = source.Arguments!;
        if (arguments.Count < count || arguments.Take(firstOptional).Any(a => a is DefaultArgument))
        {
            throw SqlErrors.ArgumentsNotSupplied(name, source.Line);
        }

        if (arguments.Count > count)
        {
            throw SqlErrors.TooManyArguments(name, source.Line);
        }

        return [.. arguments.Select(a => a is DefaultArgument ? null : ExpressionBinder.Bind(a, scope))];
    }
}

/// <summary>A column of a documented list, with the major version that added it (0: every build the simulator plays).</summary>
internal sealed record DocumentedColumn(ResultColumn Column, int SinceMajor = 0)
{
    public static implicit operator DocumentedColumn(ResultColumn column) => new(column);
}

/// <summary>
/// A view's documented column list in the documented order, of which each build has the columns added by its
/// version. Rows are built for the whole list and cut to the build's columns, so one row builder serves every build.
/// </summary>
internal sealed class DocumentedColumns(IReadOnlyList<DocumentedColumn> all)
{
    public IReadOnlyList<DocumentedColumn> All => all;

    public IReadOnlyList<ResultColumn> On(int catalogMajor) =>
        [.. all.Where(c => catalogMajor >= c.SinceMajor).Select(c => c.Column)];

    public bool IsOnSomeBuild(string name) =>
        all.Any(c => c.SinceMajor > 0 && string.Equals(c.Column.Name, name, StringComparison.OrdinalIgnoreCase));

    /// <summary>The values of a whole-list row that the build's columns hold.</summary>
    public object?[] Row(int catalogMajor, object?[] whole) =>
        whole.Length == all.Count
            ? [.. whole.Where((_, i) => catalogMajor >= all[i].SinceMajor)]
            : throw new InvalidOperationException($"A row of {whole.Length} values for {all.Count} documented columns.");
}

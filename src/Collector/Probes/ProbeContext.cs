using Dapper;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>One poll's open connection and what its probes have found so far.</summary>
internal sealed class ProbeContext(SqlConnection connection, long instanceId, int commandTimeoutSeconds, CancellationToken cancellationToken)
{
    /// <summary>The SQL login the connection uses (never its password), named in the grants a refused probe is told.</summary>
    public string? Login { get; } = new SqlConnectionStringBuilder(connection.ConnectionString).UserID is { Length: > 0 } user ? user : null;

    public SqlConnection Connection => connection;
    public long InstanceId => instanceId;
    public CancellationToken CancellationToken => cancellationToken;
    public List<ProbeOutcome> Outcomes { get; } = [];
    public InstanceIdentity? Identity { get; set; }

    public bool IsAzureSqlDatabase => Identity is { EngineEdition: 5 };
    /// <summary>Azure SQL Database or Managed Instance: the platform manages IFI, services and the error log.</summary>
    public bool IsAzurePaas => Identity is { EngineEdition: 5 or 8 };
    public int MajorVersion => Identity?.MajorVersion ?? 0;

    /// <summary>What to grant when this probe is refused on this version (one table: <see cref="ProbePermissions"/>).</summary>
    public string? PermissionFor(string probe) => ProbePermissions.For(probe, MajorVersion);

    public CommandDefinition Command(string script, DynamicParameters? parameters = null) =>
        new(SqlScripts.Get(script), parameters, commandTimeout: commandTimeoutSeconds, cancellationToken: cancellationToken);

    /// <summary>
    /// Query parameters as DynamicParameters, never an anonymous object: Dapper caches its parameter writer per
    /// connection string, and every instance has its own, so an anonymous object made Dapper emit and JIT-compile a
    /// new method for each instance's parameterised queries (two per poll across a fleet; see docs/benchmarks.md).
    /// DynamicParameters needs no generated code, and sends the same types (nvarchar(4000), datetime).
    /// </summary>
    public static DynamicParameters Parameters(params ReadOnlySpan<(string Name, object Value)> values)
    {
        var parameters = new DynamicParameters();
        foreach (var (name, value) in values) parameters.Add(name, value);
        return parameters;
    }

    public void Ok(string probe, string? message = null) => Outcomes.Add(new ProbeOutcome(probe, OutcomeClass.Ok, message));

    public void Add(ProbeOutcome outcome) => Outcomes.Add(outcome);

    /// <summary>Runs one probe; a failure becomes its classified outcome and the fallback result.</summary>
    public async Task<T> RunAsync<T>(string probe, T fallback, Func<Task<T>> run)
    {
        try
        {
            return await run();
        }
        catch (Exception e)
        {
            Outcomes.Add(FailureClassifier.Classify(probe, e, PermissionFor(probe), Login));
            return fallback;
        }
    }

    /// <summary>Azure SQL Database has no instance-level objects and no configurable IFI.</summary>
    public bool SkipOnAzure(string probe)
    {
        if (!IsAzureSqlDatabase) return false;
        Outcomes.Add(new ProbeOutcome(probe, OutcomeClass.NotApplicable, "Not available on Azure SQL Database."));
        return true;
    }

    /// <summary>
    /// What the platform manages on Azure SQL Database and Managed Instance (services, the default trace, the error
    /// log): not read there, rather than reported as a disabled trace with sp_configure advice.
    /// </summary>
    public bool SkipOnAzurePaas(string probe)
    {
        if (!IsAzurePaas) return false;
        Outcomes.Add(new ProbeOutcome(probe, OutcomeClass.NotApplicable, Identity!.EngineEdition == 8
            ? "Not available on Azure SQL Managed Instance: the platform manages IFI, its services and its traces."
            : "Not available on Azure SQL Database."));
        return true;
    }
}

using Dapper;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>One poll's open connection and what its probes have found so far.</summary>
internal sealed class ProbeContext(SqlConnection connection, long instanceId, int commandTimeoutSeconds, CancellationToken cancellationToken)
{
    public SqlConnection Connection => connection;
    public long InstanceId => instanceId;
    public CancellationToken CancellationToken => cancellationToken;
    public List<ProbeOutcome> Outcomes { get; } = [];
    public InstanceIdentity? Identity { get; set; }

    public bool IsAzureSqlDatabase => Identity is { EngineEdition: 5 };
    public int MajorVersion => Identity?.MajorVersion ?? 0;

    /// <summary>The 2022 split of VIEW SERVER STATE: what to grant for the server-state DMVs on this version.</summary>
    public string ServerStatePermission => MajorVersion >= 16 ? "VIEW SERVER SECURITY STATE" : "VIEW SERVER STATE";

    public CommandDefinition Command(string script, object? parameters = null) =>
        new(SqlScripts.Get(script), parameters, commandTimeout: commandTimeoutSeconds, cancellationToken: cancellationToken);

    public void Ok(string probe, string? message = null) => Outcomes.Add(new ProbeOutcome(probe, OutcomeClass.Ok, message));

    public void Add(ProbeOutcome outcome) => Outcomes.Add(outcome);

    /// <summary>Runs one probe; a failure becomes its classified outcome and the fallback result.</summary>
    public async Task<T> RunAsync<T>(string probe, string? permission, T fallback, Func<Task<T>> run)
    {
        try
        {
            return await run();
        }
        catch (Exception e)
        {
            Outcomes.Add(FailureClassifier.Classify(probe, e, permission));
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
}

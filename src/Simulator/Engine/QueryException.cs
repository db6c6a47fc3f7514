using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine;

/// <summary>
/// A statement failed the way SQL Server would fail it. <see cref="UnknownToSimulator"/> is true unless the failure is
/// what the emulated build deliberately answers (a column or view this version lacks, a missing permission); the
/// engine logs the others loudly, because they mean the collector and the simulator have drifted apart.
/// </summary>
internal sealed class QueryException(IReadOnlyList<SqlMessage> messages, bool abortsBatch = true, bool unknownToSimulator = true)
    : Exception(messages.Count > 0 ? messages[0].Text : "query failed")
{
    public QueryException(SqlMessage message, bool abortsBatch = true, bool unknownToSimulator = true)
        : this([message], abortsBatch, unknownToSimulator)
    {
    }

    public IReadOnlyList<SqlMessage> Messages { get; } = messages;

    /// <summary>Compile errors stop the whole batch; permission errors only end their own statement.</summary>
    public bool AbortsBatch { get; } = abortsBatch;

    public bool UnknownToSimulator { get; } = unknownToSimulator;
}

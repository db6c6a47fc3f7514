using System.Diagnostics.Metrics;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Counts, from the server's meter, the instances that incremental builds of one service provider (its
/// <see cref="IMeterFactory"/>) assessed again: how the benchmark and the tests see how much an incremental build did.
/// </summary>
public sealed class ReassessedInstances : IDisposable
{
    readonly MeterListener _listener = new();
    long _incremental;

    public ReassessedInstances(IMeterFactory meters)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Scope == meters && instrument.Name == FleetAssessmentBuilder.ReassessedInstrument)
                listener.EnableMeasurementEvents(instrument);
        };
        _listener.SetMeasurementEventCallback<long>((_, value, tags, _) =>
        {
            foreach (var tag in tags)
                if (tag is { Key: FleetAssessmentBuilder.KindTag, Value: FleetAssessmentBuilder.IncrementalKind })
                    Interlocked.Add(ref _incremental, value);
        });
        _listener.Start();
    }

    public long ByIncrementalBuilds => Interlocked.Read(ref _incremental);

    public void Dispose() => _listener.Dispose();
}

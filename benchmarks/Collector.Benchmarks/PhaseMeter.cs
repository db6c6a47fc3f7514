using System.Diagnostics;

namespace IfiDashboard.Collector.Benchmarks;

/// <summary>
/// What one phase cost this process: wall time, CPU time (all threads, so in-process it includes the simulator),
/// GC collections, bytes allocated, and the resident set sampled every 50 ms (the lifetime peak would carry over
/// from earlier phases).
/// </summary>
internal sealed class PhaseMeter : IAsyncDisposable
{
    readonly Process _process = Process.GetCurrentProcess();
    readonly FleetHost _fleet;
    readonly long _started = Stopwatch.GetTimestamp();
    readonly TimeSpan _cpu;
    readonly TimeSpan? _childCpu;
    readonly TimeSpan? _machineBusy = MachineCpu.Busy();
    readonly int[] _gcs = Collections();
    readonly long _allocated = GC.GetTotalAllocatedBytes(precise: false);
    readonly CancellationTokenSource _stop = new();
    readonly Task _sampler;
    long _peakWorkingSet;

    public PhaseMeter(FleetHost fleet)
    {
        _fleet = fleet;
        _process.Refresh();
        _cpu = _process.TotalProcessorTime;
        _childCpu = fleet.ChildCpu;
        _peakWorkingSet = ResidentBytes();
        _sampler = SampleAsync();
    }

    async Task SampleAsync()
    {
        using var timer = new PeriodicTimer(TimeSpan.FromMilliseconds(50));
        try
        {
            while (await timer.WaitForNextTickAsync(_stop.Token)) _peakWorkingSet = Math.Max(_peakWorkingSet, ResidentBytes());
        }
        catch (OperationCanceledException) { }
    }

    public Measurement Stop()
    {
        var wall = Stopwatch.GetElapsedTime(_started);
        _process.Refresh();
        var cpu = _process.TotalProcessorTime - _cpu;
        var childCpu = _fleet.ChildCpu - _childCpu;
        var othersCpu = MachineCpu.Busy() - _machineBusy - cpu - (childCpu ?? TimeSpan.Zero);
        var gcs = Collections();
        _stop.Cancel();
        return new Measurement(wall, cpu, childCpu,
            [gcs[0] - _gcs[0], gcs[1] - _gcs[1], gcs[2] - _gcs[2]],
            GC.GetTotalAllocatedBytes(precise: false) - _allocated,
            Math.Max(_peakWorkingSet, ResidentBytes()), othersCpu);
    }

    /// <summary>
    /// Resident set size from /proc/self/statm. Process.WorkingSet64 after Refresh() rebuilds the whole process
    /// description from procfs: at 20 samples a second that alone showed as ~4% of this process's CPU profile.
    /// </summary>
    static long ResidentBytes()
    {
        try
        {
            var fields = File.ReadAllText("/proc/self/statm").Split(' ');
            return long.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture) * Environment.SystemPageSize;
        }
        catch (IOException)
        {
            return Environment.WorkingSet;
        }
    }

    static int[] Collections() => [GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2)];

    public async ValueTask DisposeAsync()
    {
        _stop.Cancel();
        await _sampler;
        _stop.Dispose();
        _process.Dispose();
    }
}

/// <param name="OthersCpu">CPU the rest of the machine used meanwhile (other engineers' builds and tests).</param>
internal sealed record Measurement(TimeSpan Wall, TimeSpan Cpu, TimeSpan? SimulatorCpu, int[] Collections, long AllocatedBytes,
    long PeakWorkingSet, TimeSpan? OthersCpu);

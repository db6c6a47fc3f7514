using IfiDashboard.Client.Pages.Detail;
using IfiDashboard.Compliance.Assessment;

namespace IfiDashboard.Client.Tests.TestData;

/// <summary>
/// An assessment source that answers with a given fleet, fails, or never answers (the loading state), and on which a
/// new assessment can land later.
/// </summary>
public sealed class FakeAssessments(Func<Task<FleetAssessment>> get) : IFleetAssessments
{
    Func<Task<FleetAssessment>> _get = get;

    public static FakeAssessments Of(FleetAssessment fleet) => new(() => Task.FromResult(fleet));
    public static FakeAssessments Failing(string message) => new(() => Task.FromException<FleetAssessment>(new InvalidOperationException(message)));
    public static FakeAssessments Pending() => new(() => new TaskCompletionSource<FleetAssessment>().Task);

    public event Action? Assessed;

    /// <summary>How many components follow new assessments.</summary>
    public int Followers => Assessed?.GetInvocationList().Length ?? 0;

    public Task<FleetAssessment> GetAsync(CancellationToken cancellationToken) => _get();

    /// <summary>A new assessment lands, told on a thread of its own as the server's background assessment does.</summary>
    public Task LandAsync(FleetAssessment fleet)
    {
        _get = () => Task.FromResult(fleet);
        return Task.Run(() => Assessed?.Invoke());
    }
}

public sealed class FakeDetails(Func<long, GrowthWindow, Task<InstanceDetail?>> get) : IInstanceDetails
{
    /// <summary>The detail for its id, its growth events narrowed to the window asked for as the store's reader does.</summary>
    public static FakeDetails Of(InstanceDetail detail) =>
        new((id, window) => Task.FromResult(id == detail.Assessment.Registration.Id ? InWindow(detail, window) : null));
    public static FakeDetails Failing(string message) => new((_, _) => Task.FromException<InstanceDetail?>(new InvalidOperationException(message)));
    public static FakeDetails Pending() => new((_, _) => new TaskCompletionSource<InstanceDetail?>().Task);

    public static InstanceDetail InWindow(InstanceDetail detail, GrowthWindow window) =>
        detail with { Growth = GrowthHistory.Of(window, InstanceSpec.Now, detail.Growth.Events) };

    public Task<InstanceDetail?> GetAsync(long instanceId, GrowthWindow growthWindow, CancellationToken cancellationToken) =>
        get(instanceId, growthWindow);
}

using IfiDashboard.Shared.Dashboard;

namespace IfiDashboard.Client.Tests.TestData;

/// <summary>An assessment source that answers with a given fleet, fails, or never answers (the loading state).</summary>
public sealed class FakeAssessments(Func<Task<FleetAssessment>> get) : IFleetAssessments
{
    public static FakeAssessments Of(FleetAssessment fleet) => new(() => Task.FromResult(fleet));
    public static FakeAssessments Failing(string message) => new(() => Task.FromException<FleetAssessment>(new InvalidOperationException(message)));
    public static FakeAssessments Pending() => new(() => new TaskCompletionSource<FleetAssessment>().Task);

    public Task<FleetAssessment> GetAsync(CancellationToken cancellationToken) => get();
}

public sealed class FakeDetails(Func<long, Task<InstanceDetail?>> get) : IInstanceDetails
{
    public static FakeDetails Of(InstanceDetail detail) =>
        new(id => Task.FromResult(id == detail.Assessment.Registration.Id ? detail : null));
    public static FakeDetails Failing(string message) => new(_ => Task.FromException<InstanceDetail?>(new InvalidOperationException(message)));
    public static FakeDetails Pending() => new(_ => new TaskCompletionSource<InstanceDetail?>().Task);

    public Task<InstanceDetail?> GetAsync(long instanceId, CancellationToken cancellationToken) => get(instanceId);
}

using Xunit.Abstractions;
using Xunit.Sdk;

[assembly: Xunit.TestCollectionOrderer(IfiDashboard.E2E.Tests.WaitingCollectionsFirst.TypeName, IfiDashboard.E2E.Tests.WaitingCollectionsFirst.AssemblyName)]

namespace IfiDashboard.E2E.Tests;

/// <summary>
/// Marks a collection definition whose tests spend most of their time waiting on the product's own clocks (poll
/// intervals, claim expiry), not on the processor: <see cref="WaitingCollectionsFirst"/> starts it first.
/// </summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class MostlyWaitsAttribute : Attribute;

/// <summary>
/// xUnit starts a few collections at a time (xunit.runner.json) and the next as one ends. A collection that mostly
/// waits, started last, made the whole run wait for it alone (the two-server test: about 110 s, of which a few seconds
/// of processor time); started first, it waits beside the others.
/// </summary>
public sealed class WaitingCollectionsFirst : ITestCollectionOrderer
{
    public const string TypeName = "IfiDashboard.E2E.Tests.WaitingCollectionsFirst";
    public const string AssemblyName = "IfiDashboard.E2E.Tests";

    static readonly string Marker = typeof(MostlyWaitsAttribute).AssemblyQualifiedName!;

    public IEnumerable<ITestCollection> OrderTestCollections(IEnumerable<ITestCollection> testCollections) =>
        testCollections.OrderBy(collection => collection.CollectionDefinition?.GetCustomAttributes(Marker).Any() == true ? 0 : 1);
}

using System.Reflection;
using Xunit.Sdk;

namespace IfiDashboard.Tests.Support;

/// <summary>The stores a store test runs against: the embedded SQLite store and PostgreSQL.</summary>
public enum StoreProvider { Sqlite, Postgres }

/// <summary>
/// Runs a store test once per store, as one theory: SQLite always, PostgreSQL when <c>IFI_TEST_POSTGRES</c> names a
/// server to create test databases on (./test.sh starts one), or when CI runs the tests (<c>CI</c> set), where a
/// missing server must fail the PostgreSQL cases with a message saying so rather than leave them out unnoticed.
/// </summary>
/// <remarks>
/// With <c>values</c>, each store runs once per value, passed as the test's second argument (a seed, a case).
/// </remarks>
[AttributeUsage(AttributeTargets.Method)]
public sealed class StoreProvidersAttribute(params object[] values) : DataAttribute
{
    public const string ServerVariable = "IFI_TEST_POSTGRES";

    public static bool PostgresExpected =>
        Environment.GetEnvironmentVariable(ServerVariable) is { Length: > 0 } ||
        Environment.GetEnvironmentVariable("CI") is { Length: > 0 };

    public static IReadOnlyList<StoreProvider> Providers =>
        PostgresExpected ? [StoreProvider.Sqlite, StoreProvider.Postgres] : [StoreProvider.Sqlite];

    public override IEnumerable<object[]> GetData(MethodInfo testMethod) => values.Length == 0
        ? Providers.Select(provider => new object[] { provider })
        : Providers.SelectMany(provider => values.Select(value => new object[] { provider, value }));
}

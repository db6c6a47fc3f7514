
namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>Where the server's build output is: the benchmark runs the very binaries <c>dotnet build</c> produced.</summary>
internal static class RepositoryLayout
{
    public static string ServerDll(string configuration)
    {
        var path = Path.Combine(RepositoryRoot.Path, "src", "Server", "bin", configuration, "net10.0", "IfiDashboard.Server.dll");
        return File.Exists(path) ? path
            : throw new FileNotFoundException($"Build the server first (dotnet build -c {configuration}); {path} is missing.");
    }
}

namespace IfiDashboard.Dashboard.Benchmarks;

/// <summary>Where the server's build output is: the benchmark runs the very binaries <c>dotnet build</c> produced.</summary>
internal static class RepositoryLayout
{
    public static string Root()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
            if (File.Exists(Path.Combine(directory.FullName, "IfiDashboard.sln")))
                return directory.FullName;
        throw new InvalidOperationException("IfiDashboard.sln not found above the benchmark's binaries.");
    }

    public static string ServerDll(string configuration)
    {
        var path = Path.Combine(Root(), "src", "Server", "bin", configuration, "net10.0", "IfiDashboard.Server.dll");
        return File.Exists(path) ? path
            : throw new FileNotFoundException($"Build the server first (dotnet build -c {configuration}); {path} is missing.");
    }
}

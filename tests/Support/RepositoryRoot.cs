namespace IfiDashboard.Tests.Support;

public static class RepositoryRoot
{
    /// <summary>The folder holding IfiDashboard.sln, found upward from the test binaries.</summary>
    public static string Path { get; } = Find();

    static string Find()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
            if (File.Exists(System.IO.Path.Combine(dir.FullName, "IfiDashboard.sln"))) return dir.FullName;
        throw new InvalidOperationException("IfiDashboard.sln not found above " + AppContext.BaseDirectory);
    }
}

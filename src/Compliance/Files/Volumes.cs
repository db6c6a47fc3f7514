namespace IfiDashboard.Compliance.Files;

/// <summary>
/// Names the volume a file lives on from its physical path alone, since the collector does not read mount tables.
/// Known mount roots (configured per fleet) win by longest prefix; otherwise: drive letter ("D:\"), UNC share
/// ("\\server\share\"), SQL Server on Linux's default "/var/opt/mssql", or the first directory of a Linux path
/// ("/data1"; under /mnt and /media, the first two: "/mnt/data1").
/// </summary>
public sealed class Volumes(IEnumerable<string>? knownMountRoots = null)
{
    readonly IReadOnlyList<string> mountRoots = (knownMountRoots ?? [])
        .Select(Normalise)
        .Where(r => r.Length > 0)
        .OrderByDescending(r => r.Length)
        .ToList();

    public const string LinuxDefaultRoot = "/var/opt/mssql";

    public string VolumeOf(string physicalPath)
    {
        var path = physicalPath.Trim();
        var known = mountRoots.FirstOrDefault(root => IsUnder(path, root));
        if (known is not null)
            return known;

        if (path.Length >= 2 && char.IsAsciiLetter(path[0]) && path[1] == ':')
            return char.ToUpperInvariant(path[0]) + @":\";
        if (path.StartsWith(@"\\", StringComparison.Ordinal))
            return UncShare(path);
        if (path.StartsWith('/'))
            return LinuxRoot(path);
        return path;
    }

    static string UncShare(string path)
    {
        var parts = path[2..].Split('\\', StringSplitOptions.RemoveEmptyEntries);
        return parts.Length >= 2 ? $@"\\{parts[0]}\{parts[1]}\" : path;
    }

    static string LinuxRoot(string path)
    {
        if (IsUnder(path, LinuxDefaultRoot))
            return LinuxDefaultRoot;
        var parts = path.Split('/', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length <= 1)
            return "/";
        var depth = parts[0] is "mnt" or "media" && parts.Length > 2 ? 2 : 1;
        return "/" + string.Join('/', parts.Take(depth));
    }

    static bool IsUnder(string path, string root)
    {
        var comparison = root.Contains('\\') || root.Contains(':')
            ? StringComparison.OrdinalIgnoreCase
            : StringComparison.Ordinal;
        if (!path.StartsWith(root, comparison))
            return false;
        return path.Length == root.Length || root[^1] is '/' or '\\' || path[root.Length] is '/' or '\\';
    }

    static string Normalise(string root)
    {
        var trimmed = root.Trim();
        // Keep "D:\" and "/" whole; drop a trailing separator elsewhere so "/data1/" and "/data1" are one root.
        if (trimmed.Length > 1 && trimmed[^1] is '/' && !trimmed.EndsWith(":/", StringComparison.Ordinal))
            return trimmed[..^1];
        return trimmed;
    }
}

using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Compliance.Files;

/// <summary>
/// Names the volume a file lives on. The collector's reading of sys.dm_os_volume_stats wins: it knows a volume mounted
/// in a folder (an NTFS mount point, <c>C:\MountPoints\Data1\</c>) that the path alone cannot tell from its drive.
/// Without it, the path: known mount roots (configured per fleet) win by longest prefix; otherwise: drive letter
/// ("D:\"), UNC share ("\\server\share\"), SQL Server on Linux's default "/var/opt/mssql", or the first directory of a
/// Linux path ("/data1"; under /mnt and /media, the first two: "/mnt/data1").
/// </summary>
public sealed class Volumes(IEnumerable<string>? knownMountRoots = null)
{
    readonly IReadOnlyList<string> mountRoots = (knownMountRoots ?? [])
        .Select(Normalise)
        .Where(r => r.Length > 0)
        .OrderByDescending(r => r.Length)
        .ToList();

    public const string LinuxDefaultRoot = "/var/opt/mssql";

    /// <summary>The file's volume, and which rule named it.</summary>
    public FileVolume Of(DatabaseFileFacts file)
    {
        if (file.Volume is { } read)
            return new FileVolume(read.MountPoint, VolumeSource.VolumeStats);
        var path = file.PhysicalPath.Trim();
        return mountRoots.FirstOrDefault(root => IsUnder(path, root)) is { } known
            ? new FileVolume(known, VolumeSource.ConfiguredMountRoot)
            : new FileVolume(VolumeOf(path), VolumeSource.Path);
    }

    /// <summary>
    /// The volumes an instance's files sit on, in name order: how many files of each kind, and the size and free space
    /// the collector read (null where the volume was named from paths).
    /// </summary>
    public IReadOnlyList<InstanceVolume> Of(IEnumerable<DatabaseFileFacts> files) => files
        .Select(f => (File: f, Volume: Of(f)))
        .GroupBy(f => f.Volume.Name, StringComparer.Ordinal)
        .Select(g => new InstanceVolume(g.Key, g.First().Volume.Source,
            g.Count(f => f.File.Type == FileType.Rows), g.Count(f => f.File.Type == FileType.Log),
            g.Sum(f => f.File.SizeBytes),
            g.Select(f => f.File.Volume).FirstOrDefault(v => v is not null)))
        .OrderBy(v => v.Name, StringComparer.Ordinal)
        .ToList();

    /// <summary>Names a volume from a path alone (the configured mount roots, then the rules above).</summary>
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

/// <summary>Which rule named a file's volume, said beside every per-volume figure.</summary>
public enum VolumeSource
{
    /// <summary>The mount point sys.dm_os_volume_stats reported for the file.</summary>
    VolumeStats,
    /// <summary>A mount root configured in <c>Compliance:MountRoots</c> the path lies under.</summary>
    ConfiguredMountRoot,
    /// <summary>The path's drive letter, share or first folder: a volume mounted in a folder counts as its drive's.</summary>
    Path,
}

public readonly record struct FileVolume(string Name, VolumeSource Source);

/// <summary>One volume of an instance: its files, and what sys.dm_os_volume_stats read of it (null when not read).</summary>
public sealed record InstanceVolume(string Name, VolumeSource Source, int DataFiles, int LogFiles, long FileBytes, FileVolumeFacts? Read)
{
    public string DescribeSource() => Source switch
    {
        VolumeSource.VolumeStats => "mount point from sys.dm_os_volume_stats",
        VolumeSource.ConfiguredMountRoot => "configured mount root (Compliance:MountRoots)",
        _ => "from the file paths (drive, share or first folder): a volume mounted in a folder is not told apart until the collector reads sys.dm_os_volume_stats",
    };
}

using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Collector.Credentials;

/// <summary>
/// The collector's check of a certificate pin before SqlClient opens the file: whoever edits the inventory names the
/// path, so a pin is read only from the folder its credential names (<c>Credentials:&lt;name&gt;:CertificateFolder</c>),
/// and only when it is a plain file there. A network share would start SMB authentication to another host on a
/// Windows collector, a FIFO or device would hang or feed the open, and any other file could be a certificate whose
/// key the editor holds.
/// </summary>
public static class PinnedCertificate
{
    /// <summary>A PEM or DER certificate is a few KiB; a larger file is not one.</summary>
    public const int MaxBytes = 64 * 1024;

    static StringComparison PathComparison => OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;

    /// <summary>An absolute local folder on this machine (the rule of a pin, and fully qualified here).</summary>
    public static bool IsLocalFolder(string folder) => InstanceRules.IsLocalAbsolutePath(folder) && Path.IsPathFullyQualified(folder);

    /// <summary>Why the pin may not be read, or null when it may. Looks at the file's metadata only, never opens it.</summary>
    public static string? Refusal(string path, string folder)
    {
        if (!IsLocalFolder(path))
            return $"'{path}' is not an absolute path on the collector's machine; a network share, device, URL or relative path is never opened.";
        var root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(folder)) + Path.DirectorySeparatorChar;
        FileSystemInfo file = new FileInfo(Path.GetFullPath(path));
        if (!file.FullName.StartsWith(root, PathComparison))
            return $"'{path}' is not in the credential's CertificateFolder '{folder}'.";
        if (file.LinkTarget is not null && file.ResolveLinkTarget(returnFinalTarget: true) is { } target)
        {
            if (!Path.GetFullPath(target.FullName).StartsWith(root, PathComparison))
                return $"'{path}' is a link to a file outside the credential's CertificateFolder '{folder}'.";
            file = target;
        }
        // A FIFO, socket or device reports a length of 0, so this refuses them without opening them.
        if (file is not FileInfo { Exists: true, Length: > 0 and <= MaxBytes })
            return $"'{path}' is not a certificate file: missing, empty, not a plain file (a FIFO or device) or larger than {MaxBytes / 1024} KiB.";
        return null;
    }
}

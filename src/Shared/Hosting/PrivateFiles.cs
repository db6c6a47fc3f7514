namespace IfiDashboard.Shared.Hosting;

/// <summary>
/// Files that hold the fleet's state or the server's keys are readable by the service account alone: the folder
/// 0700 and the file 0600 on Unix (Windows folders inherit the ACL of their parent, which an installer sets).
/// </summary>
public static class PrivateFiles
{
    const UnixFileMode OwnerOnlyFolder = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;
    const UnixFileMode OwnerOnlyFile = UnixFileMode.UserRead | UnixFileMode.UserWrite;
    const UnixFileMode GroupOrOthers = UnixFileMode.GroupRead | UnixFileMode.GroupWrite | UnixFileMode.GroupExecute |
                                       UnixFileMode.OtherRead | UnixFileMode.OtherWrite | UnixFileMode.OtherExecute;

    /// <summary>Creates the folder owner-only when it does not exist; an existing folder is left as its owner made it.</summary>
    public static void EnsureFolder(string path)
    {
        if (Directory.Exists(path)) return;
        if (OperatingSystem.IsWindows()) Directory.CreateDirectory(path);
        else Directory.CreateDirectory(path, OwnerOnlyFolder);
    }

    /// <summary>
    /// Creates the file empty and owner-only before anything writes to it (SQLite gives its -wal and -shm files the
    /// mode of the database file), or takes group and other access away from one (and its -wal and -shm) that an
    /// earlier release left 0644.
    /// </summary>
    public static void EnsureFile(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            if (!File.Exists(path)) File.Create(path).Dispose();
            return;
        }
        if (!File.Exists(path))
        {
            try
            {
                using var created = new FileStream(path, new FileStreamOptions
                {
                    Mode = FileMode.CreateNew, Access = FileAccess.Write, UnixCreateMode = OwnerOnlyFile,
                });
            }
            catch (IOException) when (File.Exists(path)) { } // another process created it first
        }
        RemoveGroupAndOtherAccess(path);
        RemoveGroupAndOtherAccess(path + "-wal");
        RemoveGroupAndOtherAccess(path + "-shm");
    }

    static void RemoveGroupAndOtherAccess(string path)
    {
        if (OperatingSystem.IsWindows() || !File.Exists(path)) return;
        var mode = File.GetUnixFileMode(path);
        if ((mode & GroupOrOthers) == 0) return;
        try { File.SetUnixFileMode(path, mode & ~GroupOrOthers); }
        catch (UnauthorizedAccessException) { } // not ours to change: whoever placed it there chose its mode
    }
}

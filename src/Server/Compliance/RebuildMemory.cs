namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Gives the memory of a replaced assessment back to the operating system. While a rebuild runs, the assessment in
/// use and the one being built are both alive (at 10,000 instances the managed heap peaks near twice its resting
/// size); once the new one has replaced the old, the garbage collector keeps the grown heap committed for the next
/// rebuild, and an idle server stays at its peak. An aggressive collection compacts and decommits it. It blocks the
/// process for the length of a full collection, so it runs only after a background rebuild, which pacing already
/// spaces out (<see cref="RebuildPacing"/>), never on a request's path.
/// </summary>
internal static class RebuildMemory
{
    /// <summary>
    /// Below this the heap is too small for giving it back to be worth a blocking full collection: a small fleet
    /// rebuilds within milliseconds, about once a second while polls land.
    /// </summary>
    const long WorthReleasingBytes = 128L * 1024 * 1024;

    /// <param name="allocatedBytes">
    /// What the process allocated while the build ran. An incremental build, which assesses a few instances again,
    /// allocates megabytes: it grew nothing worth a blocking collection, and it runs up to once a second.
    /// </param>
    public static void Release(long allocatedBytes)
    {
        if (allocatedBytes < WorthReleasingBytes || GC.GetTotalMemory(forceFullCollection: false) < WorthReleasingBytes)
            return;
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
    }
}

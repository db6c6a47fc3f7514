namespace IfiDashboard.Compliance.Facts;

/// <summary>SQL Server counts file sizes and growth in 8-KB pages (sys.master_files, default trace IntegerData).</summary>
public static class Pages
{
    public const long BytesPerPage = 8192;

    /// <summary>64 MB: the largest log autogrowth that SQL Server 2022+ leaves unzeroed.</summary>
    public const long SmallLogGrowthLimit = 64L * 1024 * 1024 / BytesPerPage;

    public static long ToBytes(long pages) => pages * BytesPerPage;

    public static double ToMegabytes(long pages) => pages * BytesPerPage / (1024.0 * 1024.0);
}

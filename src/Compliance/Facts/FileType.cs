namespace IfiDashboard.Compliance.Facts;

/// <summary>sys.master_files.type, with the same numeric values.</summary>
public enum FileType
{
    Rows = 0,
    Log = 1,
    Filestream = 2,
    Fulltext = 4,
}

namespace IfiDashboard.Compliance.Facts;

/// <summary>
/// One row of sys.dm_database_encryption_keys. A database without a row has no encryption key: not encrypted.
/// </summary>
public sealed record DatabaseEncryptionFacts(int DatabaseId, int EncryptionState)
{
    /// <summary>
    /// States 2 to 6 (encryption in progress, encrypted, key change, decryption in progress, protection change) all
    /// mean pages on disk are, or are becoming, encrypted, and data-file IFI is off for the database. 0 and 1 are not.
    /// Decryption in progress counts: the database is still TDE-enabled until it finishes.
    /// </summary>
    public bool PreventsDataFileIfi => EncryptionState is >= 2 and <= 6;
}

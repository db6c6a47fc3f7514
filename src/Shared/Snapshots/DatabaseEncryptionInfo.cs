namespace IfiDashboard.Shared.Snapshots;

/// <summary>
/// One row of sys.dm_database_encryption_keys: 0 none, 1 unencrypted, 2 encryption in progress, 3 encrypted,
/// 4 key change, 5 decryption in progress, 6 protection change.
/// </summary>
public sealed record DatabaseEncryptionInfo(int DatabaseId, int EncryptionState);

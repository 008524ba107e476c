namespace BLite;

/// <summary>
/// A counter kept where someone who can replace the database files cannot roll it back: a TPM or
/// secure-enclave monotonic counter, an OS keystore entry, a server. An <see cref="IKeyProvider"/>
/// that also implements this interface lets an encrypted database detect being replaced, file
/// and log together, by an older copy of itself (docs/encryption.md, "Rolling back everything
/// together"), which nothing inside the files can tell.
/// </summary>
public interface IRollbackCounter
{
    /// <summary>The highest checkpoint counter recorded for the database at <paramref name="databasePath"/>, or 0.</summary>
    long GetCounter(string databasePath);

    /// <summary>
    /// Records that the database at <paramref name="databasePath"/> committed checkpoint
    /// <paramref name="counter"/>; called once the checkpoint is on disk, with increasing values. A
    /// crash before the call leaves the stored value behind the file, which is harmless.
    /// </summary>
    void SetCounter(string databasePath, long counter);
}

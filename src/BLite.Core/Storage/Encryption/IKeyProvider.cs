namespace BLite;

/// <summary>
/// Supplies the 32-byte key of an encrypted database from wherever the application keeps it (an
/// OS keystore, a hardware module, a secrets service). Called once per open.
/// </summary>
public interface IKeyProvider
{
    /// <summary>The AES-256 key (exactly 32 bytes) for the database at <paramref name="databasePath"/>.</summary>
    ReadOnlyMemory<byte> GetKey(string databasePath);
}

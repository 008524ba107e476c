namespace BLite.Extensions.DependencyInjection;

/// <summary>
/// Configures how a context registered with <c>AddBLite</c> opens its database. Applied after the
/// configuration section (if any), so code overrides configuration.
/// </summary>
public sealed class BLiteOptionsBuilder
{
    internal BLiteOptionsBuilder(DocumentDbContextOptions options)
    {
        Options = options;
    }

    /// <summary>The options the context will be created with.</summary>
    public DocumentDbContextOptions Options { get; }

    /// <summary>The database file (relative paths resolve against the process's current directory).</summary>
    public BLiteOptionsBuilder UsePath(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        Options.Path = path;
        return this;
    }

    /// <summary>How commits reach the disk; <see cref="Durability.InMemory"/> keeps everything in memory.</summary>
    public BLiteOptionsBuilder UseDurability(Durability durability)
    {
        Options.Durability = durability;
        return this;
    }

    /// <summary>A database in memory only (tests, caches); refused together with a path.</summary>
    public BLiteOptionsBuilder UseInMemory() => UseDurability(Durability.InMemory);

    /// <summary>The page cache's memory budget in bytes.</summary>
    public BLiteOptionsBuilder UseCacheBudget(long bytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(bytes);
        Options.CacheBudgetBytes = bytes;
        return this;
    }

    /// <summary>
    /// Encrypts the database at rest (docs/encryption.md); for a key kept in an OS keystore, pass
    /// <see cref="BLiteEncryption.WithKeyProvider"/> with a provider that reads it.
    /// </summary>
    public BLiteOptionsBuilder UseEncryption(BLiteEncryption encryption)
    {
        ArgumentNullException.ThrowIfNull(encryption);
        Options.Encryption = encryption;
        return this;
    }

    /// <summary>The page size of a new database in bytes (an existing file keeps its own).</summary>
    public BLiteOptionsBuilder UsePageSize(int bytes)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(bytes);
        Options.PageSize = bytes;
        return this;
    }
}

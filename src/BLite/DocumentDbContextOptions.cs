using BLite.Core.Storage;
using Microsoft.Extensions.Logging;

namespace BLite;

/// <summary>How a <see cref="DocumentDbContext"/> opens its database.</summary>
public sealed class DocumentDbContextOptions
{
    /// <summary>
    /// The database file (its WAL sits beside it as <c>path-wal</c>). Required, unless
    /// <see cref="Durability"/> is <see cref="Durability.InMemory"/>, which refuses a path.
    /// </summary>
    public string? Path { get; set; }

    /// <summary>
    /// <see cref="Durability.Full"/> (default): a commit returns once it is on stable storage.
    /// <see cref="Durability.Normal"/>: synced at checkpoint only (safe against a process crash).
    /// <see cref="Durability.InMemory"/>: nothing is written to disk and all is lost on dispose.
    /// </summary>
    public Durability Durability { get; set; } = Durability.Full;

    /// <summary>Page size of a new database in bytes (an existing file keeps its own).</summary>
    public int PageSize { get; set; } = 8192;

    /// <summary>The page cache's memory budget.</summary>
    public long CacheBudgetBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>
    /// Where BLite logs opening and recovery, checkpoints, slow commits, corruption and refused
    /// writes (category <c>BLite</c>); null logs nothing. <c>AddBLite</c> sets the container's.
    /// </summary>
    public ILoggerFactory? LoggerFactory { get; set; }

    /// <summary>A commit slower than this is logged as a warning (default one second).</summary>
    public TimeSpan SlowCommitThreshold { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Open an existing database for reading only: no lock is taken and nothing is written, so it
    /// works on read-only files and on a database another process holds open. Declared
    /// collections and indexes that are missing are not created (they read as empty); every
    /// write, transaction or checkpoint throws <see cref="BLiteException"/>. Not valid with
    /// <see cref="Durability.InMemory"/>.
    /// </summary>
    public bool ReadOnly { get; set; }

    /// <summary>
    /// How much history the change journal keeps for the collections declared with
    /// <c>HasChangeFeed</c> (default 64 MiB and 7 days); trimmed at checkpoint (docs/changefeed.md).
    /// </summary>
    public ChangeFeedRetention ChangeFeedRetention { get; set; } = new();

    /// <summary>
    /// Encrypts the database at rest with AES-256-GCM (docs/encryption.md):
    /// <see cref="BLiteEncryption.WithKey"/>, <see cref="BLiteEncryption.WithPassword"/> or
    /// <see cref="BLiteEncryption.WithKeyProvider"/>. A new database is created encrypted; an
    /// encrypted one opens only with its key (<see cref="BLiteEncryptionException"/> otherwise,
    /// and nothing is written). <c>blite rekey</c> encrypts, re-keys or decrypts a closed database;
    /// <see cref="DatabaseFacade.Rekey"/> rotates the key of an open encrypted one. Null (the
    /// default): no encryption.
    /// </summary>
    public BLiteEncryption? Encryption { get; set; }

    /// <summary>A context over a database that lives in memory only.</summary>
    public static DocumentDbContextOptions ForMemory() => new() { Durability = Durability.InMemory };

    internal bool InMemory => Durability == Durability.InMemory;

    /// <summary>Opens the engine instead of the path (tests put the context on fault-injecting devices with it).</summary>
    internal Func<StorageOptions, StorageEngine>? OpenStorage { get; set; }

    /// <summary>A server store replacing the embedded engine (set by a provider package, e.g. <c>UsePostgreSql</c>); Path and the engine settings are then ignored.</summary>
    internal Providers.IDocumentStoreProvider? StoreProvider { get; set; }

    internal StorageOptions ToStorageOptions() => new()
    {
        Durability = Durability,
        PageSize = PageSize,
        CacheBudgetBytes = CacheBudgetBytes,
        SlowCommitThreshold = SlowCommitThreshold,
        Logger = LoggerFactory?.CreateLogger("BLite"),
        ReadOnly = ReadOnly,
        ChangeFeedRetention = ChangeFeedRetention,
        Encryption = Encryption,
    };
}

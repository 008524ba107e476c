using Microsoft.Extensions.Logging;

namespace BLite.Core.Storage;

/// <summary>Settings for <see cref="StorageEngine"/>. Validated when the engine opens.</summary>
internal sealed class StorageOptions
{
    /// <summary>How far a commit travels before it returns. Default <see cref="Durability.Full"/>.</summary>
    public Durability Durability { get; set; } = Durability.Full;

    /// <summary>
    /// Page size of a new database: a power of two from 4 KB to 64 KB, default 8 KB. An existing
    /// database keeps the page size it was created with and this value is ignored.
    /// </summary>
    public int PageSize { get; set; } = 8192;

    /// <summary>
    /// Byte budget of the page cache (default 64 MiB). Pages kept for old snapshots after a
    /// checkpoint are counted separately (<c>StorageStatistics.PinnedBytes</c>).
    /// </summary>
    public long CacheBudgetBytes { get; set; } = 64L * 1024 * 1024;

    /// <summary>
    /// A commit that leaves the WAL at or above this size starts a checkpoint (default 16 MiB; at
    /// least one page): in the background when <see cref="CheckpointInBackground"/> is set,
    /// otherwise inside that commit, before it returns.
    /// </summary>
    public long WalCheckpointThresholdBytes { get; set; } = 16L * 1024 * 1024;

    /// <summary>
    /// Run the automatic checkpoint on a background task, off every commit's path (default true).
    /// Commits keep appending while it copies; a commit that finds the WAL at four times the
    /// threshold waits for it to finish, so the log stays bounded (docs/storage.md).
    /// </summary>
    public bool CheckpointInBackground { get; set; } = true;

    /// <summary>How much history the change journal keeps (docs/changefeed.md); trimmed at checkpoint.</summary>
    public ChangeFeedRetention ChangeFeedRetention { get; set; } = new();

    /// <summary>Where the engine logs (open, recovery, checkpoints, slow commits, failures); null logs nothing.</summary>
    public ILogger? Logger { get; set; }

    /// <summary>A commit slower than this is logged as a warning (default one second).</summary>
    public TimeSpan SlowCommitThreshold { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Open an existing database for reading only: nothing is written, checkpointed or locked, so
    /// it works on files the user may only read and on a database another engine or process holds
    /// open. Readers see the database as of the open (file plus committed log); every write,
    /// transaction or checkpoint throws <see cref="BLiteException"/>. Not valid with
    /// <see cref="Durability.InMemory"/>.
    /// </summary>
    public bool ReadOnly { get; set; }

    /// <summary>
    /// Accept a catalog of format 1, whose number keys this BLite cannot compare. Only
    /// <c>upgrade</c> sets it, and it only iterates such a database (scans in stored order, index
    /// definitions, counts) to copy it into the current format.
    /// </summary>
    internal bool ReadsSeparateNumberKeys { get; set; }

    /// <summary>
    /// Zero-fill the log ahead of its appends on the committing thread instead of a thread-pool
    /// thread. Only for tests on fault-injecting devices, which number their power cuts by I/O
    /// operation and so need every write to come in the same order on every run.
    /// </summary>
    internal bool FillsLogAheadOnCommitPath { get; set; }

    /// <summary>Encrypts a new database, or opens an encrypted one (docs/encryption.md); null for a plain database.</summary>
    public BLiteEncryption? Encryption { get; set; }

    /// <summary>These options with another encryption (null for none), for reopening a database after it was rewritten under it.</summary>
    internal StorageOptions WithEncryption(BLiteEncryption? encryption)
    {
        var copy = (StorageOptions)MemberwiseClone();
        copy.Encryption = encryption;
        return copy;
    }

    internal StorageOptions Validated()
    {
        if (ReadOnly && Durability == Durability.InMemory)
        {
            throw new ArgumentException("A read-only open needs a database file; it cannot be combined with Durability.InMemory.", nameof(ReadOnly));
        }

        if (!Enum.IsDefined(Durability))
        {
            throw new ArgumentOutOfRangeException(nameof(Durability), Durability, "Unknown durability mode.");
        }

        if (!Paging.PageLayout.IsValidPageSize(PageSize))
        {
            throw new ArgumentOutOfRangeException(nameof(PageSize), PageSize, "The page size must be a power of two from 4096 to 65536 bytes.");
        }

        ArgumentOutOfRangeException.ThrowIfNegative(CacheBudgetBytes, nameof(CacheBudgetBytes));
        ArgumentOutOfRangeException.ThrowIfLessThan(WalCheckpointThresholdBytes, PageSize, nameof(WalCheckpointThresholdBytes));
        ArgumentOutOfRangeException.ThrowIfLessThan(SlowCommitThreshold, TimeSpan.Zero, nameof(SlowCommitThreshold));
        ArgumentNullException.ThrowIfNull(ChangeFeedRetention);
        ChangeFeedRetention.Validate();
        return new StorageOptions
        {
            Durability = Durability,
            PageSize = PageSize,
            CacheBudgetBytes = CacheBudgetBytes,
            WalCheckpointThresholdBytes = WalCheckpointThresholdBytes,
            CheckpointInBackground = CheckpointInBackground,
            Logger = Logger,
            SlowCommitThreshold = SlowCommitThreshold,
            ReadOnly = ReadOnly,
            ReadsSeparateNumberKeys = ReadsSeparateNumberKeys,
            FillsLogAheadOnCommitPath = FillsLogAheadOnCommitPath,
            ChangeFeedRetention = ChangeFeedRetention,
            Encryption = Encryption,
        };
    }
}

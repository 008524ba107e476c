using System.Collections.Concurrent;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.InteropServices;
using BLite.Core.Diagnostics;
using BLite.Core.Storage.Devices;
using BLite.Core.Storage.Paging;
using BLite.Core.Storage.Wal;
using BLite.Core.Transactions;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace BLite.Core.Storage;

/// <summary>
/// The storage engine: a paged database file plus an append-only, checksummed write-ahead log.
/// One writer at a time (<see cref="BeginWrite"/>), any number of snapshot readers
/// (<see cref="BeginRead"/>); readers and the writer never wait for each other.
/// </summary>
/// <remarks>
/// Concurrency: <c>_sync</c> guards the page table and the commit/flush bookkeeping, and is only
/// ever held for in-memory work, never across I/O. Readers register without it
/// (StorageEngine.ReaderRegistry.cs). The writer slot is a
/// SemaphoreSlim rather than a lock so a write transaction may be committed on another thread
/// after an await. See docs/storage.md.
/// </remarks>
internal sealed partial class StorageEngine : IDisposable
{
    private readonly IStorageDevice _file;
    private readonly IStorageDevice _walDevice;
    private readonly WriteAheadLog _wal;
    private readonly Lock _sync = new();
    private readonly PageTable _pages;
    private readonly int _trailerSize;
    private readonly bool _publishesInMemory;
    private readonly SemaphoreSlim _writerSlot = new(1, 1);

    // The finished lent write transaction kept for the next one (see BeginLentWrite).
    private WriteTransaction? _spareWrite;
    // Readers the engine registers under the lock for a snapshot that may not be published yet
    // (the background checkpoint's copy); other readers register without it (ReaderRegistry).
    private readonly Dictionary<long, int> _readers = [];
    private readonly HashSet<uint> _walPages = [];
    private readonly List<IPageOwnershipSource> _ownershipSources = [];
    private static readonly ConcurrentDictionary<StorageEngine, byte> s_openEngines = new();
    private long _publishedSeq;
    private long _writtenSeq;
    private long _filePageCount;
    private long _fileEpoch;
    private long _walEpoch;
    private long _checkpoints;
    private long _cacheHits;
    private long _cacheMisses;
    private long _commits;
    private Exception? _failure;
    private SharedLogWatch? _sharedLog;
    private bool _disposed;

    private StorageEngine(string path, StorageOptions options, IStorageDevice file, IStorageDevice wal, int pageSize, ulong databaseId)
    {
        Path = path;
        Options = options;
        _file = file;
        _walDevice = wal;
        PageSize = pageSize;
        DatabaseId = databaseId;
        _trailerSize = file is Encryption.EncryptedFileDevice ? Encryption.PageCipher.TrailerSize : PageLayout.TrailerSize;
        // A checkpoint drops about as many versions as the log held frames: keeping that many
        // arrays for reuse lets the commits of the next interval copy pages without allocating.
        _publishesInMemory = options.Durability == Durability.InMemory && file is not Encryption.EncryptedFileDevice;
        // In memory the version chains are the database: no image may be evicted, there being no
        // device to read it back from.
        _pages = new PageTable(pageSize, _publishesInMemory ? long.MaxValue : options.CacheBudgetBytes, options.ReadOnly ? 0 : MaxLogBytes);
        _hotPages = new PageVersion?[HotPageSlotsFor(options.CacheBudgetBytes, pageSize)];
        _pointEntries = new PointEntry?[PointEntriesFor(options.CacheBudgetBytes, pageSize)];
        _pointSlotShift = 64 - BitOperations.Log2((uint)_pointEntries.Length);
        // The log is kept zero-filled ahead of the appends up to the size at which commits wait for
        // the checkpoint, so no commit grows the file (docs/storage.md, "WAL file reuse and preallocation").
        _wal = new WriteAheadLog(wal, pageSize, databaseId, options.ReadOnly || options.Durability == Durability.InMemory ? 0 : MaxLogBytes, options.FillsLogAheadOnCommitPath);
        _filePageCount = file.Length / pageSize;
        Log = options.Logger ?? NullLogger.Instance;
        TelemetryTags = [new("db.system.name", BLiteTelemetry.SystemName), new("db.namespace", path)];
    }

    /// <summary>The engine's logger (a no-op one when none was configured).</summary>
    internal ILogger Log { get; }

    /// <summary>Tags on every measurement of this database: <c>db.system.name</c> and <c>db.namespace</c> (its path).</summary>
    internal KeyValuePair<string, object?>[] TelemetryTags { get; }

    /// <summary>The database file's path (or the in-memory label).</summary>
    public string Path { get; }

    /// <summary>The options the engine runs with (a validated copy).</summary>
    public StorageOptions Options { get; }

    /// <summary>Page size of this database, fixed at creation.</summary>
    public int PageSize { get; }

    /// <summary>Bytes of each page available to the layers above: the page size less the trailer (8 bytes, 48 when encrypted).</summary>
    public int PagePayloadSize => PageSize - _trailerSize;

    internal ulong DatabaseId { get; }

    /// <summary>The failure that made this engine refuse writes, or null while it accepts them.</summary>
    internal Exception? WriteFailure => Volatile.Read(ref _failure);

    internal bool IsClosed
    {
        get
        {
            lock (_sync)
            {
                return _disposed;
            }
        }
    }

    /// <summary>Starts a snapshot reader: it sees every commit acknowledged before this call, and nothing later.</summary>
    public ReadTransaction BeginRead()
    {
        var readers = EnterRead(out var pageCount);
        return new ReadTransaction(this, readers, pageCount);
    }

    /// <summary>Waits for the single writer slot and starts a write transaction.</summary>
    public WriteTransaction BeginWrite()
    {
        ThrowIfUnwritable();
        _writerSlot.Wait();
        return StartWrite();
    }

    /// <summary>Waits asynchronously for the single writer slot and starts a write transaction.</summary>
    public async ValueTask<WriteTransaction> BeginWriteAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfUnwritable();
        await _writerSlot.WaitAsync(cancellationToken).ConfigureAwait(false);
        return StartWrite();
    }

    /// <summary>
    /// As <see cref="BeginWrite"/>, for a caller that ends the transaction with
    /// <see cref="WriteTransaction.EndLent"/> and keeps no reference to it (a single operation
    /// that commits before it returns): the engine then reuses the object, its page dictionary
    /// included, for the next such write instead of allocating them per commit.
    /// </summary>
    internal WriteTransaction BeginLentWrite()
    {
        ThrowIfUnwritable();
        if (CommitPhaseClock.Enabled)
        {
            CommitPhaseClock.SlotWanted = CommitPhaseClock.Now();
        }

        _writerSlot.Wait();
        if (CommitPhaseClock.Enabled)
        {
            CommitPhaseClock.SlotTaken = CommitPhaseClock.Now();
        }

        return StartWrite(lent: true);
    }

    /// <summary>The asynchronous form of <see cref="BeginLentWrite"/>.</summary>
    internal async ValueTask<WriteTransaction> BeginLentWriteAsync(CancellationToken cancellationToken)
    {
        ThrowIfUnwritable();
        await _writerSlot.WaitAsync(cancellationToken).ConfigureAwait(false);
        return StartWrite(lent: true);
    }

    /// <summary>Takes back a finished lent transaction (see <see cref="BeginLentWrite"/>).</summary>
    internal void ReturnLentWrite(WriteTransaction transaction) => Volatile.Write(ref _spareWrite, transaction);

    /// <summary>
    /// Copies every committed page from the WAL into the database file, flushes it and restarts
    /// the WAL. Waits for a running background checkpoint and the writer slot; never waits for readers.
    /// </summary>
    public void Checkpoint()
    {
        ThrowIfUnwritable();
        TakeCheckpointGate();
        try
        {
            _writerSlot.Wait();
            try
            {
                ThrowIfUnwritable();
                CheckpointCore();
            }
            finally
            {
                _writerSlot.Release();
            }
        }
        finally
        {
            ReleaseCheckpointGate();
        }
    }

    /// <summary>Registers a structure that owns pages, so <see cref="Verify"/> checks it on every run.</summary>
    public void AddOwnershipSource(IPageOwnershipSource source)
    {
        ArgumentNullException.ThrowIfNull(source);
        lock (_sync)
        {
            _ownershipSources.Add(source);
        }
    }

    /// <summary>
    /// Checks the database as of a fresh snapshot: every page's checksum, the header, the free
    /// list, and that no page is both free and owned or owned twice (owners come from the
    /// registered <see cref="IPageOwnershipSource"/>s and <paramref name="extraSources"/>).
    /// </summary>
    /// <param name="requireEveryPageOwned">Also report pages that are neither free nor claimed (leaks); only meaningful when every structure registers a source.</param>
    /// <param name="extraSources">Ownership sources for this run only.</param>
    public VerificationReport Verify(bool requireEveryPageOwned = false, params IPageOwnershipSource[] extraSources)
    {
        ArgumentNullException.ThrowIfNull(extraSources);
        IPageOwnershipSource[] sources;
        lock (_sync)
        {
            sources = [.. _ownershipSources, .. extraSources];
        }

        using var snapshot = BeginRead();
        return ConsistencyChecker.Check(this, snapshot, sources, requireEveryPageOwned);
    }

    /// <summary>Page reads served from the cache since open: under the engine's lock, or by the hot-page memo without it.</summary>
    internal long CacheHits => Volatile.Read(ref _cacheHits) + HotPageHits;

    /// <summary>Page reads that went to the file or the WAL since open.</summary>
    internal long CacheMisses => Interlocked.Read(ref _cacheMisses);

    /// <summary>
    /// The figures the observable instruments publish, read under the lock without touching the
    /// devices (a failed device must not break metric collection for every other database).
    /// </summary>
    internal (long CachedBytes, long WalBytes, long Commits) TelemetryFigures()
    {
        lock (_sync)
        {
            return (_pages.CachedBytes, _wal.End, _commits);
        }
    }

    /// <summary>The engines open in this process, for the observable instruments.</summary>
    internal static ICollection<StorageEngine> OpenEngines() => s_openEngines.Keys;

    /// <summary>Counts a finished commit and logs it when slower than the configured threshold.</summary>
    internal void RecordCommit(long startedTimestamp)
    {
        var elapsed = Stopwatch.GetElapsedTime(startedTimestamp);
        if (BLiteTelemetry.CommitDuration.Enabled)
        {
            BLiteTelemetry.CommitDuration.Record(elapsed.TotalSeconds, TelemetryTags);
        }

        // Recorded once the commit is durable, back-dated to its start, so a commit with no
        // listener costs one check rather than an activity kept alive through the group flush.
        if (BLiteTelemetry.ActivitySource.HasListeners())
        {
            using var activity = BLiteTelemetry.ActivitySource.StartActivity(
                "commit", ActivityKind.Internal, parentContext: default, TelemetryTags, startTime: DateTimeOffset.UtcNow - elapsed);
        }

        if (elapsed > Options.SlowCommitThreshold)
        {
            Log.SlowCommit(Path, elapsed.TotalMilliseconds, Options.SlowCommitThreshold.TotalMilliseconds);
        }
    }

    /// <summary>Memory, WAL and activity figures at this instant.</summary>
    public StorageStatistics GetStatistics()
    {
        lock (_sync)
        {
            var readers = RegisteredReaderCount();
            return new StorageStatistics(
                _pages.CachedBytes,
                _pages.PinnedBytes,
                Options.CacheBudgetBytes,
                _wal.End,
                _walDevice.Length,
                _checkpoints,
                _commits,
                readers,
                _pages.ChainCount)
            {
                InMemoryCommits = _inMemoryCommits,
            };
        }
    }

    /// <summary>Checkpoints (unless the engine failed or a write transaction is still open) and closes the files.</summary>
    public void Dispose()
    {
        lock (_sync)
        {
            if (_disposed)
            {
                return;
            }
        }

        // A running background checkpoint finishes first (its copy is bounded); one requested
        // later finds the engine closed and does nothing.
        TakeCheckpointGate();
        var ownsSlot = _writerSlot.Wait(0);
        Exception? checkpointFailure = null;
        try
        {
            if (ownsSlot && _failure is null && Options.Durability != Durability.InMemory && !Options.ReadOnly)
            {
                CheckpointCore();
                ShrinkLogAtClose();
            }
        }
        catch (BLiteException exception)
        {
            checkpointFailure = exception;
        }
        finally
        {
            Close();
            if (ownsSlot)
            {
                _writerSlot.Release();
            }

            ReleaseCheckpointGate();
        }

        if (checkpointFailure is null && Volatile.Read(ref _failureReported) == 0 && Volatile.Read(ref _backgroundFailure) is { } backgroundFailure)
        {
            throw new BLiteException($"Closing database '{Path}': a background checkpoint had failed ({backgroundFailure.Message}), so the last commits may not be durable; the write-ahead log holds every commit it could write and the next open recovers them.", backgroundFailure);
        }

        if (checkpointFailure is not null)
        {
            throw new BLiteException($"Closing database '{Path}' failed during the final checkpoint; its write-ahead log still holds every commit and the next open recovers them.", checkpointFailure);
        }
    }

    /// <summary>Closes the devices as a killed process would: no checkpoint, no flush. For crash tests.</summary>
    internal void CloseWithoutCheckpoint() => Close();

    internal void ReleaseWriter() => _writerSlot.Release();

    /// <summary>A write transaction for the holder of the writer slot, which keeps the slot when it commits.</summary>
    private WriteTransaction StartNestedWrite()
    {
        ThrowIfUnwritable();
        var snapshot = _writtenSeq;
        return new WriteTransaction(this, snapshot, WriterHeader(snapshot), nested: true);
    }

    private WriteTransaction StartWrite(bool lent = false)
    {
        try
        {
            ThrowIfUnwritable();
            var snapshot = _writtenSeq;
            var header = WriterHeader(snapshot);
            if (lent && Interlocked.Exchange(ref _spareWrite, null) is { } spare)
            {
                spare.Rearm(snapshot, header);
                return spare;
            }

            return new WriteTransaction(this, snapshot, header, lent: lent);
        }
        catch
        {
            _writerSlot.Release();
            throw;
        }
    }

    /// <summary>
    /// Snapshots still in use, ascending: every reader's, the published one new readers get, and
    /// (Full mode) every commit written but not yet flushed. Those last are future snapshots: a
    /// flush may publish them one at a time, so pruning a version only they see would let a new
    /// reader fall back to an older image of that page beside the newer images of the others
    /// — half a commit. Call under _sync.
    /// </summary>
    private long[] LiveSnapshots() => LiveSnapshotsInScratch().ToArray();

    /// <summary>
    /// <see cref="LiveSnapshots"/> in a list the engine reuses, for the commit path: valid until
    /// the next call, under the same hold of _sync.
    /// </summary>
    private ReadOnlySpan<long> LiveSnapshotsInScratch()
    {
        var snapshots = _liveSnapshotScratch;
        snapshots.Clear();
        AddRegisteredSnapshots(snapshots);
        foreach (var commit in _unpublished)
        {
            snapshots.Add(commit.Seq);
        }

        snapshots.Add(_publishedSeq);
        snapshots.Sort();
        return CollectionsMarshal.AsSpan(snapshots);
    }

    private readonly List<long> _liveSnapshotScratch = [];

    private void Close()
    {
        lock (_sync)
        {
            if (_disposed)
            {
                return;
            }

            _disposed = true;
        }

        s_openEngines.TryRemove(this, out _);
        _wal.StopPreallocating();
        _walDevice.Dispose();
        _file.Dispose();
        Log.DatabaseClosed(Path);
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowDisposed();
        }
    }

    private void ThrowIfUnwritable()
    {
        ThrowIfDisposed();
        if (Options.ReadOnly)
        {
            ThrowReadOnly();
        }

        if (_failure is { } failure)
        {
            ThrowFailed(failure);
        }
    }

    private void ThrowReadOnly() =>
        throw new BLiteException($"Database '{Path}' was opened read-only; writes, transactions and checkpoints are refused. Open it without ReadOnly to change it.");

    private void ThrowDisposed() => throw new ObjectDisposedException(nameof(StorageEngine), $"Database '{Path}' is closed.");

    private void ThrowFailed(Exception failure)
    {
        Volatile.Write(ref _failureReported, 1);
        throw new BLiteException($"Database '{Path}' refuses writes after an earlier failure ({failure.Message}); reopen it to recover from the write-ahead log.", failure);
    }

    /// <summary>Marks the engine unwritable after an I/O failure or detected corruption. Call under _sync or before publishing.</summary>
    private void Fail(Exception failure)
    {
        if (Interlocked.CompareExchange(ref _failure, failure, null) is not null)
        {
            return;
        }

        if (failure is BLiteCorruptionException corruption)
        {
            Log.CorruptionDetected(Path, corruption.Message, corruption);
        }

        Log.WritesRefused(Path, failure.Message, failure);
    }
}

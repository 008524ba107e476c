using System.Collections.Concurrent;
using BLite.Core;
using BLite.Core.Storage;

namespace BLite;

/// <summary>
/// The database underneath a <see cref="DocumentDbContext"/>, reached through
/// <see cref="DocumentDbContext.Database"/> as EF Core's <c>context.Database</c> is: its files,
/// checkpoint, consistency check, statistics, backup, health and the schemaless collections.
/// Operations that write take part in the context's current transaction, like the collections'.
/// On a server provider only <see cref="GetCollection"/> applies; the engine's operations throw
/// <see cref="NotSupportedException"/>.
/// </summary>
public sealed class DatabaseFacade
{
    private readonly DocumentDbContext _context;
    private readonly ConcurrentDictionary<string, BsonDocumentCollection> _schemaless = new(StringComparer.Ordinal);

    internal DatabaseFacade(DocumentDbContext context, string? path)
    {
        _context = context;
        Path = path;
    }

    /// <summary>The database file's full path; null for an in-memory database.</summary>
    public string? Path { get; }

    /// <summary>The write-ahead log's full path (beside the database file); null for an in-memory database.</summary>
    public string? WalPath => Path is null ? null : StorageEngine.WalPathFor(Path);

    /// <summary>True when the database lives in memory only (<see cref="Durability.InMemory"/>); false on a server provider.</summary>
    public bool IsInMemory => Path is null && _context.Store is null;

    /// <summary>Page size of this database in bytes, fixed when the file was created.</summary>
    public int PageSize => Engine.Storage.PageSize;

    /// <summary>
    /// False when the database was opened read-only, or once it refuses writes after an I/O
    /// failure or detected corruption (reads still work; reopening recovers from the write-ahead
    /// log). See <see cref="WriteRefusalReason"/>.
    /// </summary>
    public bool AcceptsWrites => WriteRefusalReason is null;

    /// <summary>Why the database refuses writes, or null while it accepts them.</summary>
    public string? WriteRefusalReason
    {
        get
        {
            var storage = Engine.Storage;
            return storage.WriteFailure?.Message ?? (storage.Options.ReadOnly ? "the database was opened read-only" : null);
        }
    }

    /// <summary>
    /// A schemaless collection of <see cref="BsonDocument"/>s with the same operations as the typed
    /// collections and MongoDB-style JSON filters. It takes part in the context's transactions. The
    /// collection need not exist: its first insert creates it.
    /// </summary>
    public BsonDocumentCollection GetCollection(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        if (_context.Store is { } store)
        {
            return _schemaless.GetOrAdd(name, static (n, state) => new BsonDocumentCollection(state.Context, n, state.Store.Schemaless(n)), (Context: _context, Store: store));
        }

        var engine = Engine;
        return _schemaless.GetOrAdd(name, static (n, state) => new BsonDocumentCollection(state.Context, state.Engine.GetCollection(n)), (Context: _context, Engine: engine));
    }

    /// <summary>The names of the collections that exist, typed and schemaless alike, in ordinal order.</summary>
    public IReadOnlyList<string> GetCollectionNames() =>
        _context.Read(Engine, static (pages, engine) => engine.GetCollectionNames(pages));

    /// <summary>
    /// Drops a collection with its documents and indexes; false if it did not exist. A typed
    /// collection of the context is empty afterwards (its declared indexes come back on the next open).
    /// </summary>
    public bool DropCollection(string name)
    {
        ArgumentException.ThrowIfNullOrEmpty(name);
        return _context.Write((Engine, name), static (pages, s) => s.Engine.DropCollection(pages, s.name));
    }

    /// <summary>Copies committed pages from the write-ahead log into the database file (also done automatically).</summary>
    public void Checkpoint() => Engine.Checkpoint();

    /// <summary>
    /// Checks the whole database as of a fresh snapshot: checksums, header, free list, every tree,
    /// page ownership and each collection's documents, counters and index entries.
    /// </summary>
    public VerificationReport Verify() => Engine.Verify();

    /// <summary>The engine's memory, write-ahead log and activity figures, now.</summary>
    public StorageStatistics GetStatistics() => Engine.Storage.GetStatistics();

    /// <summary>
    /// Writes a consistent copy of the database, as of one commit (the moment of the call), to a
    /// new file at <paramref name="destinationPath"/> while readers and writers go on: the copy
    /// reads a snapshot, so writers never wait for it. The copy is compact (no free pages), carries
    /// the change journal (a watcher can resume against it), and is written under a temporary
    /// name, flushed, reopened and verified before it is renamed to the destination, so a backup
    /// that fails or is killed never leaves a file that looks complete. Refuses an existing
    /// destination.
    /// </summary>
    /// <param name="progress">Reports documents copied out of the documents in the snapshot.</param>
    /// <returns>The number of documents copied.</returns>
    public long Backup(string destinationPath, IProgress<BackupProgress>? progress = null) =>
        BackupCore(destinationPath, progress, CancellationToken.None);

    /// <inheritdoc cref="Backup(string, IProgress{BackupProgress}?)"/>
    public Task<long> BackupAsync(string destinationPath, IProgress<BackupProgress>? progress = null, CancellationToken cancellationToken = default) =>
        Task.Run(() => BackupCore(destinationPath, progress, cancellationToken), cancellationToken);

    private long BackupCore(string destinationPath, IProgress<BackupProgress>? progress, CancellationToken cancellationToken)
    {
        ArgumentException.ThrowIfNullOrEmpty(destinationPath);
        return Engine.BackupTo(destinationPath, progress is null ? null : (done, total) => progress.Report(new BackupProgress(done, total)), cancellationToken);
    }

    /// <summary>
    /// The committed changes of every collection with a change feed, in commit order, as
    /// <see cref="BsonDocument"/>s; same rules as a collection's <c>Watch</c>.
    /// </summary>
    public IAsyncEnumerable<ChangeEvent<BsonValue, BsonDocument>> Watch(WatchOptions? options = null, CancellationToken cancellationToken = default)
    {
        var fields = Engine.Fields;
        return ChangeStream.Open(Engine, null, options, null, null, change => ChangeStream.ToBson(change, fields), cancellationToken);
    }

    /// <summary>The oldest and newest positions the change journal holds now: where <see cref="ChangeFeedStart.Oldest"/> and <see cref="ChangeFeedStart.Now"/> start.</summary>
    public (ChangeFeedToken Oldest, ChangeFeedToken Newest) GetChangeFeedBounds()
    {
        var bounds = Engine.GetJournalBounds();
        return (bounds.Oldest, bounds.Now);
    }

    /// <summary>
    /// Rotates the key of this encrypted database while it stays open (docs/encryption.md): every
    /// page is re-encrypted under <paramref name="newEncryption"/> into a new file beside it, read
    /// back and compared, and only then renamed over the database in one step; until then nothing
    /// changes, and from then on only the new key opens it. Readers go on; writers wait. Throws
    /// <see cref="BLiteEncryptionException"/> for a plain database: encrypting or decrypting one
    /// rewrites every page with another layout, which <c>blite rekey</c> does while it is closed.
    /// Not inside a transaction of this context.
    /// </summary>
    public void Rekey(BLiteEncryption newEncryption)
    {
        ArgumentNullException.ThrowIfNull(newEncryption);
        if (_context.CurrentTransaction is not null)
        {
            throw new InvalidOperationException("Rekey cannot run inside a transaction of this context; commit or dispose the transaction first.");
        }

        Engine.Storage.Rekey(newEncryption);
    }

    internal DocumentDatabase Engine => _context.Engine;
}

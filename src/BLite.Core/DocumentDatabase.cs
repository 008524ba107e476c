using System.Collections.Concurrent;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections.Catalog;
using BLite.Core.Collections;
using BLite.Core.Diagnostics;
using BLite.Core.BTrees;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core;

/// <summary>
/// A database of document collections over one <see cref="StorageEngine"/>. It owns the catalog
/// (collections, index definitions and roots, sequences, the persisted field-name dictionary),
/// which lives on page 1 and pages reached from it and changes only inside write transactions,
/// so it commits, rolls back and recovers with the data.
/// </summary>
internal sealed partial class DocumentDatabase : IDisposable
{
    private static readonly ConcurrentDictionary<DocumentDatabase, byte> s_open = new();
    private readonly ConcurrentDictionary<string, RawCollection> _collections = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, TransactionalBsonCollection> _bsonCollections = new(StringComparer.Ordinal);
    private bool _disposed;

    private DocumentDatabase(StorageEngine storage, BsonFieldDictionary? adoptedFields = null)
    {
        Storage = storage;
        Catalog = InitialiseCatalog(storage, adoptedFields, out var fields, out var pagePayloadSize);
        Fields = fields;
        MaxKeySize = BTree.GetMaxKeySize(pagePayloadSize);
        ChangeFeed = new ChangeFeedHub(Catalog, storage.Options.ChangeFeedRetention);
        storage.AddOwnershipSource(new CollectionPageOwnership(this));
        storage.SetLogRecordFolder(ChangeFeed.Fold, ChangeFeed.Release);
        KeepDocumentCounts();

        // An open that recovered journal records from the log checkpoints only now that they can be folded.
        storage.CompleteRecovery();
    }

    /// <summary>The databases open in this process, for the observable instruments.</summary>
    internal static ICollection<DocumentDatabase> OpenDatabases() => s_open.Keys;

    /// <summary>The collection handles made so far (each counts its documents read and written).</summary>
    internal ICollection<RawCollection> CollectionHandles => _collections.Values;

    /// <summary>The engine underneath, for transactions, checkpoints and storage-level checks.</summary>
    internal StorageEngine Storage { get; }

    /// <summary>
    /// This database's field-name dictionary. Serialize documents for this database with it
    /// (ids are per database); names it gains are persisted by the next write operation.
    /// </summary>
    public BsonFieldDictionary Fields { get; }

    internal CatalogStore Catalog { get; }

    /// <summary>The change journal's writer side and the watchers' wake-up signal.</summary>
    internal ChangeFeedHub ChangeFeed { get; }

    /// <summary>The longest encoded key the trees accept (primary keys, and field key plus primary key).</summary>
    internal int MaxKeySize { get; }

    /// <summary>Opens (creating if missing) the database file at <paramref name="path"/>, then ensures the declared collections and indexes.</summary>
    public static DocumentDatabase Open(string path, StorageOptions? options = null, IEnumerable<CollectionDefinition>? collections = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        return Create(StorageEngine.Open(path, options ?? new StorageOptions()), collections);
    }

    /// <summary>
    /// Reopens the database at <paramref name="path"/> after it was rewritten (encrypted or
    /// decrypted) under the same field-name dictionary instance, so mappers built over
    /// <paramref name="fields"/> go on serializing for it. The persisted names must be the
    /// dictionary's first names, in id order, which a rewrite of a database using it guarantees.
    /// </summary>
    internal static DocumentDatabase Reopen(string path, StorageOptions options, BsonFieldDictionary fields)
    {
        var storage = StorageEngine.Open(path, options);
        try
        {
            var database = new DocumentDatabase(storage, fields);
            s_open.TryAdd(database, 0);
            return database;
        }
        catch
        {
            storage.Dispose();
            throw;
        }
    }

    /// <summary>A database over an engine opened by the caller (for example on fault-injecting devices); it owns the engine from here on.</summary>
    internal static DocumentDatabase Open(StorageEngine storage, IEnumerable<CollectionDefinition>? collections = null) =>
        Create(storage, collections);

    /// <summary>A database that lives in memory only (tests, caches).</summary>
    public static DocumentDatabase OpenInMemory(StorageOptions? options = null, IEnumerable<CollectionDefinition>? collections = null) =>
        Create(StorageEngine.OpenInMemory(options ?? new StorageOptions()), collections);

    public ReadTransaction BeginRead()
    {
        ThrowIfDisposed();
        return Storage.BeginRead();
    }

    /// <inheritdoc cref="StorageEngine.Read{TState, TResult}"/>
    public TResult Read<TState, TResult>(TState state, Func<IPageReader, TState, TResult> operation)
    {
        ThrowIfDisposed();
        return Storage.Read(state, operation);
    }

    public WriteTransaction BeginWrite()
    {
        ThrowIfDisposed();
        return Storage.BeginWrite();
    }

    public ValueTask<WriteTransaction> BeginWriteAsync(CancellationToken cancellationToken = default)
    {
        ThrowIfDisposed();
        return Storage.BeginWriteAsync(cancellationToken);
    }

    /// <summary>A write transaction the caller ends with <see cref="WriteTransaction.EndLent"/> and never keeps (see <see cref="StorageEngine.BeginLentWrite"/>).</summary>
    internal WriteTransaction BeginLentWrite()
    {
        ThrowIfDisposed();
        return Storage.BeginLentWrite();
    }

    /// <summary>The asynchronous form of <see cref="BeginLentWrite"/>.</summary>
    internal ValueTask<WriteTransaction> BeginLentWriteAsync(CancellationToken cancellationToken)
    {
        ThrowIfDisposed();
        return Storage.BeginLentWriteAsync(cancellationToken);
    }

    /// <summary>The raw-bytes handle of a collection (which need not exist yet: its first insert creates it).</summary>
    public RawCollection GetRawCollection(string name)
    {
        CatalogNames.Validate(name, "collection name");
        ThrowIfDisposed();
        return _collections.GetOrAdd(name, static (n, db) => new RawCollection(db, n), this);
    }

    /// <summary>The schemaless <see cref="BsonDocument"/> handle of a collection.</summary>
    public TransactionalBsonCollection GetCollection(string name)
    {
        CatalogNames.Validate(name, "collection name");
        ThrowIfDisposed();
        return _bsonCollections.GetOrAdd(name, static (n, db) => new TransactionalBsonCollection(db.GetRawCollection(n)), this);
    }

    /// <summary>The collections that exist in the given snapshot, in ordinal name order.</summary>
    public IReadOnlyList<string> GetCollectionNames(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var names = new List<string>();
        foreach (var collection in Catalog.GetSnapshot(pages).Collections)
        {
            names.Add(collection.Name);
        }

        names.Sort(StringComparer.Ordinal);
        return names;
    }

    public IReadOnlyList<string> GetCollectionNames()
    {
        using var read = BeginRead();
        return GetCollectionNames(read);
    }

    /// <summary>Drops a collection with its documents and indexes; false when it does not exist.</summary>
    public bool DropCollection(IPageWriter pages, string name) => GetRawCollection(name).Drop(pages);

    /// <summary>
    /// Creates the declared collections and every declared index that is missing (building new
    /// indexes over existing documents). Never drops a collection or index that is not declared.
    /// </summary>
    public void EnsureSchema(IPageWriter pages, IEnumerable<CollectionDefinition> collections)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(collections);
        foreach (var definition in collections)
        {
            var collection = GetRawCollection(definition.Name);
            var info = collection.ResolveOrCreate(pages);
            if (definition.ChangeFeed is { } mode && info.ChangeFeed != mode)
            {
                Catalog.ReplaceCollection(pages, info.WithChangeFeed(mode));
            }

            foreach (var index in definition.Indexes)
            {
                collection.EnsureIndex(pages, index);
            }

            foreach (var vectorIndex in definition.VectorIndexes)
            {
                collection.EnsureVectorIndex(pages, vectorIndex);
            }
        }
    }

    /// <summary>
    /// Checks the whole database as of a fresh snapshot: the storage layer (checksums, header,
    /// free list), every tree, that each page is owned by exactly one structure or free (no leak),
    /// and the collections' content (documents, counters, field names, index entries).
    /// </summary>
    public VerificationReport Verify()
    {
        ThrowIfDisposed();
        return Storage.Verify(requireEveryPageOwned: true);
    }

    /// <summary>Trims the change journal to its retention, then checkpoints.</summary>
    public void Checkpoint()
    {
        ThrowIfDisposed();
        ChangeFeed.TrimNow(Storage);
        Storage.Checkpoint();
    }

    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        s_open.TryRemove(this, out _);
        try
        {
            // Close checkpoints, so retention runs here too (not on a read-only or failed engine).
            if (!Storage.Options.ReadOnly && Storage.WriteFailure is null && !Storage.IsClosed)
            {
                ChangeFeed.TrimNow(Storage);
            }
        }
        finally
        {
            Storage.Dispose();

            // Waiting watchers wake up to find the database closed.
            ChangeFeed.Signal();
        }
    }

    private static DocumentDatabase Create(StorageEngine storage, IEnumerable<CollectionDefinition>? collections)
    {
        try
        {
            var database = new DocumentDatabase(storage);
            // A read-only database reads the collections and indexes that exist; declared ones
            // that are missing read as empty rather than being created.
            if (collections is not null && !storage.Options.ReadOnly)
            {
                using var write = storage.BeginWrite();
                database.EnsureSchema(write, collections);
                write.Commit();
            }

            s_open.TryAdd(database, 0);
            return database;
        }
        catch
        {
            storage.Dispose();
            throw;
        }
    }

    private static CatalogStore InitialiseCatalog(StorageEngine storage, BsonFieldDictionary? adoptedFields, out BsonFieldDictionary fields, out int pagePayloadSize)
    {
        bool initialised;
        using (var read = storage.BeginRead())
        {
            initialised = CatalogStore.IsInitialised(read);
        }

        if (!initialised && storage.Options.ReadOnly)
        {
            throw new BLiteException($"Database '{storage.Path}' has no collection catalog yet (it was never opened as a document database), and a read-only open cannot create one.");
        }

        if (!initialised)
        {
            fields = new BsonFieldDictionary();
            var created = new CatalogStore(storage.Path, fields);
            using var write = storage.BeginWrite();
            created.Initialise(write);
            write.Commit();
        }

        using var snapshot = storage.BeginRead();
        pagePayloadSize = snapshot.PagePayloadSize;
        try
        {
            var names = CatalogStore.LoadFieldNames(snapshot, storage.Path, storage.Options.ReadsSeparateNumberKeys);
            fields = adoptedFields is null ? BsonFieldDictionary.FromNames(names) : Adopt(adoptedFields, names, storage.Path);
        }
        catch (ArgumentException ex)
        {
            throw new BLiteCorruptionException(storage.Path, PageIds.Catalog, $"the persisted field names are inconsistent: {ex.Message}");
        }

        var catalog = new CatalogStore(storage.Path, fields, storage.Options.ReadsSeparateNumberKeys);
        catalog.Load(snapshot);
        return catalog;
    }

    private static BsonFieldDictionary Adopt(BsonFieldDictionary fields, IEnumerable<string> persisted, string path)
    {
        ushort id = 0;
        foreach (var name in persisted)
        {
            if (!fields.TryGetName(id, out var known) || !string.Equals(known, name, StringComparison.Ordinal))
            {
                throw new BLiteException($"Database '{path}' was rewritten with field names that differ from the open context's (field id {id}); reopen the context.");
            }

            id++;
        }

        return fields;
    }

    private void ThrowIfDisposed() => ObjectDisposedException.ThrowIf(_disposed, this);
}

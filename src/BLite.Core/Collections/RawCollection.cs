using BLite.Core.Diagnostics;
using BLite.Bson;
using BLite.Core.Collections.Catalog;
using BLite.Core.Collections.Indexes;
using BLite.Core.BTrees;
using BLite.Core.Documents;
using BLite.Core.Storage;
using BLite.Core.Transactions;

namespace BLite.Core.Collections;

/// <summary>
/// A collection of raw C-BSON documents: a primary B+ tree (encoded <c>_id</c> → document
/// bytes) plus its secondary indexes, all maintained in the caller's transaction. Write
/// operations take the write transaction (<see cref="IPageWriter"/>); read operations take any
/// <see cref="IPageReader"/> — a read snapshot, or the write transaction itself, which sees its
/// own writes. The handle is stateless and cheap: the collection's shape comes from the catalog
/// as the given transaction sees it, and a collection that does not exist yet is created by its
/// first insert.
/// </summary>
internal sealed partial class RawCollection
{
    private readonly DocumentDatabase _database;
    private readonly SplitCounter _documentsRead = new();
    private long _documentsWritten;

    internal RawCollection(DocumentDatabase database, string name)
    {
        _database = database;
        Name = name;
        TelemetryTags = [new("db.system.name", BLiteTelemetry.SystemName), new("db.namespace", database.Storage.Path), new("db.collection.name", name)];
    }

    public string Name { get; }

    /// <summary>Tags on this collection's measurements: the database's and <c>db.collection.name</c>.</summary>
    internal KeyValuePair<string, object?>[] TelemetryTags { get; }

    /// <summary>Documents returned by lookups and queries since this handle was made (for <c>blite.documents.read</c>).</summary>
    internal long DocumentsRead => _documentsRead.Value;

    /// <summary>Documents inserted, updated or deleted since this handle was made (for <c>blite.documents.written</c>).</summary>
    internal long DocumentsWritten => Interlocked.Read(ref _documentsWritten);

    /// <summary>Counts one document returned (when <paramref name="found"/>).</summary>
    internal bool CountRead(bool found)
    {
        if (found)
        {
            _documentsRead.Add(1);
        }

        return found;
    }

    /// <summary>
    /// Counts one document returned through <paramref name="pages"/> (when <paramref name="found"/>):
    /// without an atomic instruction when the reader is lent to the calling thread.
    /// </summary>
    internal bool CountRead(IPageReader pages, bool found)
    {
        if (found)
        {
            _documentsRead.Add(pages is ReadTransaction read ? read.CounterSlot : -1, 1);
        }

        return found;
    }

    private void CountWritten() => Interlocked.Increment(ref _documentsWritten);

    public DocumentDatabase Database => _database;

    /// <summary>Whether the collection exists in the snapshot <paramref name="pages"/> sees.</summary>
    public bool Exists(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        return Resolve(pages) is not null;
    }

    /// <summary>The secondary indexes as the snapshot sees them.</summary>
    public IReadOnlyList<IndexDefinition> GetIndexes(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        if (collection is null)
        {
            return [];
        }

        var definitions = new IndexDefinition[collection.Indexes.Count];
        for (var i = 0; i < definitions.Length; i++)
        {
            definitions[i] = collection.Indexes[i].Definition;
        }

        return definitions;
    }

    /// <summary>
    /// The encoded primary key of a document (its <c>_id</c> through the order-preserving key
    /// encoding; a composite <c>_id</c> document becomes a composite key).
    /// </summary>
    public byte[] GetPrimaryKey(ReadOnlySpan<byte> document) =>
        IndexKeyCodec.EncodePrimaryKey(document, FindId(document), _database.MaxKeySize);

    // Catalog snapshots are immutable and shared until the catalog changes, so the name lookup is
    // kept per snapshot: a point read would otherwise hash the collection's name every time.
    private ResolvedCollection? _resolved;

    internal CollectionInfo? Resolve(IPageReader pages)
    {
        var catalog = _database.Catalog.GetSnapshot(pages);
        var resolved = _resolved;
        if (resolved is not null && ReferenceEquals(resolved.Catalog, catalog))
        {
            return resolved.Collection;
        }

        var collection = catalog.Find(Name);
        _resolved = new ResolvedCollection(catalog, collection);
        return collection;
    }

    private sealed record ResolvedCollection(CatalogSnapshot Catalog, CollectionInfo? Collection);

    internal CollectionInfo ResolveOrCreate(IPageWriter pages) =>
        Resolve(pages) ?? _database.Catalog.CreateCollection(pages, Name);

    private int MaxFieldKeyLength(ReadOnlySpan<byte> primaryKey) => _database.MaxKeySize - primaryKey.Length;

    private List<byte[]> BuildKeys(ReadOnlySpan<byte> document, IndexInfo index, ReadOnlySpan<byte> primaryKey) =>
        IndexKeyBuilder.Build(document, index, _database.Fields, Name, MaxFieldKeyLength(primaryKey));

    private static BTree Primary(CollectionInfo collection) => collection.PrimaryTree;
}

using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Runtime.CompilerServices;
using System.Text;
using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections.Catalog;

/// <summary>
/// Reads and changes the catalog: the anchor on page 1 and the catalog B+ tree it points to.
/// Catalog-tree keys:
/// <code>
/// 0x01 + UTF-8 collection name     → CollectionRecord
/// 0x02 + u16 big-endian field id   → UTF-8 field name
/// </code>
/// Every change goes through the caller's write transaction, so the catalog commits and rolls
/// back with the data. Parsed catalogs are cached per generation: an operation reads the
/// generation from page 1 through its own snapshot (one cached page read) and uses the matching
/// parsed catalog, so a reader never sees a collection or index its snapshot does not have.
/// </summary>
internal sealed class CatalogStore
{
    private const byte CollectionKeyTag = 0x01;
    private const byte FieldNameKeyTag = 0x02;
    private const int MaxCachedSnapshots = 8;

    private readonly string _filePath;
    private readonly BsonFieldDictionary _fields;
    private readonly ConcurrentDictionary<ulong, CatalogSnapshot> _snapshots = new();
    private CatalogSnapshot? _latest;
    private long _lastGeneration;

    private readonly bool _acceptsSeparateNumberKeys;

    public CatalogStore(string filePath, BsonFieldDictionary fields, bool acceptsSeparateNumberKeys = false)
    {
        _acceptsSeparateNumberKeys = acceptsSeparateNumberKeys;
        _filePath = filePath;
        _fields = fields;
    }

    public string FilePath => _filePath;

    /// <summary>True when the stored catalog is format 1 (opened only by <c>upgrade</c>).</summary>
    public bool HasSeparateNumberKeys { get; private set; }

    public static bool IsInitialised(IPageReader pages) => CatalogAnchor.IsInitialised(pages.ReadPage(PageIds.Catalog).Span);

    /// <summary>Creates the catalog tree and anchor in a database whose page 1 is still zeroed.</summary>
    public void Initialise(IPageWriter pages)
    {
        var tree = BTree.Create(pages);
        var anchor = new CatalogAnchor(tree.RootPageId, 0, 1, 1);
        anchor.WriteTo(pages.WritePage(PageIds.Catalog).Span);
        PersistNewFieldNames(pages);
    }

    /// <summary>Called once at open: later generations handed out by this process start above the stored one.</summary>
    public void Load(IPageReader pages)
    {
        var anchor = ReadAnchor(pages);
        HasSeparateNumberKeys = anchor.Version == CatalogAnchor.SeparateNumberKeysVersion;
        _lastGeneration = (long)anchor.Generation;
        _latest = LoadSnapshot(pages, anchor);
        _snapshots[_latest.Generation] = _latest;
    }

    public CatalogAnchor ReadAnchor(IPageReader pages) => CatalogAnchor.Read(pages.ReadPage(PageIds.Catalog).Span, _filePath, _acceptsSeparateNumberKeys);

    public CatalogSnapshot GetSnapshot(IPageReader pages)
    {
        // Every reader of one committed snapshot sees the same catalog: the first to resolve it
        // leaves it on the snapshot's registration, and the others skip reading page 1.
        var shared = pages.SharedSnapshot;
        if (shared?.Memo is SnapshotCatalog memo && ReferenceEquals(memo.Store, this))
        {
            return memo.Catalog;
        }

        return ReadAndRemember(pages, shared);
    }

    // Out of line: it runs once per snapshot, and inlined into every point read it took the
    // inlining budget the lookup's own small accessors need.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private CatalogSnapshot ReadAndRemember(IPageReader pages, StorageEngine.SnapshotReaders? shared)
    {
        var snapshot = ReadSnapshot(pages);
        if (shared is not null)
        {
            shared.Memo = new SnapshotCatalog(this, snapshot);
        }

        return snapshot;
    }

    private CatalogSnapshot ReadSnapshot(IPageReader pages)
    {
        var generation = CatalogAnchor.ReadGeneration(pages.ReadPage(PageIds.Catalog).Span);
        var latest = _latest;
        if (latest is not null && latest.Generation == generation)
        {
            return latest;
        }

        if (_snapshots.TryGetValue(generation, out var cached))
        {
            return cached;
        }

        var loaded = LoadSnapshot(pages, ReadAnchor(pages));
        Remember(loaded);
        return loaded;
    }

    private sealed record SnapshotCatalog(CatalogStore Store, CatalogSnapshot Catalog);

    /// <summary>Field names in id order, exactly as persisted.</summary>
    public static List<string> LoadFieldNames(IPageReader pages, string filePath, bool acceptSeparateNumberKeys = false)
    {
        var anchor = CatalogAnchor.Read(pages.ReadPage(PageIds.Catalog).Span, filePath, acceptSeparateNumberKeys);
        var tree = BTree.Open(anchor.TreeRoot);
        var names = new List<string>((int)anchor.PersistedFieldCount);
        Span<byte> key = stackalloc byte[3];
        key[0] = FieldNameKeyTag;
        for (var id = 0; id < anchor.PersistedFieldCount; id++)
        {
            BinaryPrimitives.WriteUInt16BigEndian(key[1..], (ushort)id);
            if (!tree.TryGet(pages, key, out var name))
            {
                throw new BLiteCorruptionException(filePath, null, $"the catalog lacks field name {id} of {anchor.PersistedFieldCount}.");
            }

            names.Add(Encoding.UTF8.GetString(name.Span));
        }

        return names;
    }

    /// <summary>
    /// Persists the names the in-memory dictionary gained since the last persisted id. Ids are
    /// handed out in memory and never taken back, so a name added by a transaction that rolled
    /// back keeps its id and is persisted by the next transaction that writes, with that same id;
    /// a committed document can only use ids below the dictionary's count at its commit, and every
    /// write operation persists up to that count before it writes, so every id a committed
    /// document uses is in the catalog by the same commit.
    /// </summary>
    public void PersistNewFieldNames(IPageWriter pages)
    {
        var anchor = ReadAnchor(pages);
        var persisted = (int)anchor.PersistedFieldCount;
        if (_fields.Count <= persisted)
        {
            return;
        }

        var names = _fields.GetNamesFrom(persisted);
        var tree = BTree.Open(anchor.TreeRoot);
        Span<byte> key = stackalloc byte[3];
        key[0] = FieldNameKeyTag;
        for (var i = 0; i < names.Count; i++)
        {
            BinaryPrimitives.WriteUInt16BigEndian(key[1..], (ushort)(persisted + i));
            tree.Upsert(pages, key, Encoding.UTF8.GetBytes(names[i]));
        }

        anchor.WithPersistedFieldCount((uint)(persisted + names.Count)).WriteTo(pages.WritePage(PageIds.Catalog).Span);
    }

    public CollectionInfo CreateCollection(IPageWriter pages, string name)
    {
        var anchor = ReadAnchor(pages);
        var snapshot = GetSnapshot(pages);
        var primary = BTree.Create(pages);
        var statsPage = pages.AllocatePage();
        CollectionStats.Initialise(pages.WritePage(statsPage).Span, anchor.NextCollectionId);
        var collection = new CollectionInfo(name, anchor.NextCollectionId, primary.RootPageId, statsPage, []);
        WriteRecord(pages, anchor, collection);
        var generation = NextGeneration();
        anchor.WithNextCollectionId(anchor.NextCollectionId + 1).WithGeneration(generation).WriteTo(pages.WritePage(PageIds.Catalog).Span);
        Remember(snapshot.With(generation, collection));
        return collection;
    }

    /// <summary>Stores a collection whose index list changed.</summary>
    public void ReplaceCollection(IPageWriter pages, CollectionInfo collection)
    {
        var anchor = ReadAnchor(pages);
        var snapshot = GetSnapshot(pages);
        WriteRecord(pages, anchor, collection);
        var generation = NextGeneration();
        anchor.WithGeneration(generation).WriteTo(pages.WritePage(PageIds.Catalog).Span);
        Remember(snapshot.With(generation, collection));
    }

    public void RemoveCollection(IPageWriter pages, CollectionInfo collection)
    {
        var anchor = ReadAnchor(pages);
        var snapshot = GetSnapshot(pages);
        BTree.Open(anchor.TreeRoot).Delete(pages, CollectionKey(collection.Name));
        var generation = NextGeneration();
        anchor.WithGeneration(generation).WriteTo(pages.WritePage(PageIds.Catalog).Span);
        Remember(snapshot.Without(generation, collection.Name));
    }

    private void WriteRecord(IPageWriter pages, CatalogAnchor anchor, CollectionInfo collection) =>
        BTree.Open(anchor.TreeRoot).Upsert(pages, CollectionKey(collection.Name), CollectionRecord.Encode(collection));

    private CatalogSnapshot LoadSnapshot(IPageReader pages, CatalogAnchor anchor)
    {
        var collections = new Dictionary<string, CollectionInfo>(StringComparer.Ordinal);
        var tree = BTree.Open(anchor.TreeRoot);
        foreach (var (key, value) in CatalogTreeScan.WithPrefix(tree, pages, [CollectionKeyTag]))
        {
            var name = Encoding.UTF8.GetString(key.AsSpan(1));
            collections[name] = CollectionRecord.Decode(name, value, _filePath);
        }

        return new CatalogSnapshot(anchor.Generation, collections);
    }

    private static byte[] CollectionKey(string name)
    {
        var key = new byte[1 + Encoding.UTF8.GetByteCount(name)];
        key[0] = CollectionKeyTag;
        Encoding.UTF8.GetBytes(name, key.AsSpan(1));
        return key;
    }

    /// <summary>
    /// Generations are unique within the process (a rolled-back transaction's generation is never
    /// handed out again), so a cached snapshot can never be mistaken for a different catalog.
    /// </summary>
    private ulong NextGeneration() => (ulong)Interlocked.Increment(ref _lastGeneration);

    private void Remember(CatalogSnapshot snapshot)
    {
        if (_snapshots.Count >= MaxCachedSnapshots)
        {
            foreach (var generation in _snapshots.Keys)
            {
                if (generation != snapshot.Generation)
                {
                    _snapshots.TryRemove(generation, out _);
                }
            }
        }

        _snapshots[snapshot.Generation] = snapshot;
        var latest = _latest;
        if (latest is null || snapshot.Generation > latest.Generation)
        {
            _latest = snapshot;
        }
    }
}

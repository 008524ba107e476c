using BLite.Core.Collections.Catalog;
using BLite.Core.Collections.Indexes;
using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

internal sealed partial class RawCollection
{
    // A BTree is an immutable handle on a root that never moves, so point reads keep the last one
    // instead of allocating a handle per lookup; a dropped and re-created collection has a new root.
    private BTree? _primaryHandle;

    /// <summary>One tree descent on the primary index. The bytes stay valid for as long as the caller holds them.</summary>
    public bool TryFindById(IPageReader pages, ReadOnlySpan<byte> primaryKey, out ReadOnlyMemory<byte> document)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        if (collection is null)
        {
            document = default;
            return false;
        }

        return CountRead(pages, PrimaryHandle(collection).TryGet(pages, primaryKey, out document));
    }

    /// <summary>
    /// One tree descent on the primary index, handing the document's bytes to
    /// <paramref name="read"/>; a document spread over overflow pages is assembled in a pooled
    /// buffer rather than a new array, so the bytes are valid only inside <paramref name="read"/>.
    /// </summary>
    public bool TryReadById<TState, TResult>(IPageReader pages, ReadOnlySpan<byte> primaryKey, TState state, Func<ReadOnlySpan<byte>, TState, TResult> read, out TResult result)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        if (collection is null)
        {
            result = default!;
            return false;
        }

        return CountRead(pages, PrimaryHandle(collection).TryRead(pages, primaryKey, state, read, out result));
    }

    /// <summary>Whether a document has this primary key: one tree descent; the document is never read, however large.</summary>
    public bool ContainsId(IPageReader pages, ReadOnlySpan<byte> primaryKey)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        return collection is not null && PrimaryHandle(collection).ContainsKey(pages, primaryKey);
    }

    private BTree PrimaryHandle(CollectionInfo collection)
    {
        var handle = _primaryHandle;
        if (handle is null || handle.RootPageId != collection.PrimaryRoot)
        {
            handle = BTree.Open(collection.PrimaryRoot);
            _primaryHandle = handle;
        }

        return handle;
    }

    /// <summary>Number of documents, from the collection's counter (no scan).</summary>
    public long Count(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        return collection is null ? 0 : DocumentCount.Read(pages, collection);
    }

    /// <summary>The last value handed out by the collection's sequence (0 if none or no collection).</summary>
    public long SequenceValue(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        return collection is null ? 0 : CollectionStats.ReadSequence(pages.ReadPage(collection.StatsPage).Span);
    }

    /// <summary>
    /// Documents in primary-key order within <paramref name="primaryKeyRange"/> (encoded keys;
    /// null for all), forwards or backwards.
    /// </summary>
    internal DocumentCursor Scan(IPageReader pages, KeyRange? primaryKeyRange = null, bool descending = false)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        if (collection is null)
        {
            return DocumentCursor.Empty;
        }

        // A document cursor's document is valid until its next move, so its leaves are read
        // transiently: a scan larger than the cache neither allocates a page per leaf nor evicts.
        return DocumentCursor.OverPrimary(TreeCursor.Open(Primary(collection), pages, primaryKeyRange ?? KeyRange.All, descending, transient: true));
    }

    /// <summary>
    /// Entries of a secondary index whose field key lies in <paramref name="fieldKeyRange"/>,
    /// in index order (equal field values in primary-key order), each with its document.
    /// Bounds are encoded field keys and match by prefix: an inclusive bound takes every entry
    /// whose field key starts with it, so the leading values of a composite index, or a string
    /// prefix written with <see cref="KeyWriter.WriteStringPrefix(ReadOnlySpan{char})"/>, work
    /// as bounds; <see cref="KeyRange.Prefix(ReadOnlySpan{byte})"/> gives equality.
    /// Throws when the index does not exist.
    /// </summary>
    internal DocumentCursor ScanIndex(IPageReader pages, string indexName, KeyRange fieldKeyRange, bool descending = false)
    {
        var (index, collection) = OpenIndexScan(pages, indexName, fieldKeyRange);
        if (collection is null)
        {
            return DocumentCursor.Empty;
        }

        var entries = TreeCursor.Open(BTree.Open(index!.RootPageId), pages, ToEntryRange(fieldKeyRange), descending, transient: true);
        return DocumentCursor.OverIndex(entries, Primary(collection), pages, _database.Catalog.FilePath);
    }

    /// <summary>Like <see cref="ScanIndex"/>, yielding only primary keys: no document is read.</summary>
    internal IndexKeyCursor ScanIndexKeys(IPageReader pages, string indexName, KeyRange fieldKeyRange, bool descending = false)
    {
        var (index, collection) = OpenIndexScan(pages, indexName, fieldKeyRange);
        if (collection is null)
        {
            return IndexKeyCursor.Empty;
        }

        return new IndexKeyCursor(TreeCursor.Open(BTree.Open(index!.RootPageId), pages, ToEntryRange(fieldKeyRange), descending));
    }

    /// <summary>
    /// Walks the primary keys of several field-key ranges of one secondary index through one
    /// finger (null when the collection does not exist). Throws when the index does not exist.
    /// </summary>
    internal IndexKeyProbe? ProbeIndexKeys(IPageReader pages, string indexName)
    {
        var (index, collection) = OpenIndexScan(pages, indexName, KeyRange.All);
        return collection is null ? null : new IndexKeyProbe(new BTreePathFinger(BTree.Open(index!.RootPageId), pages), pages);
    }

    /// <summary>Reads documents by sorted primary keys (a join's), through one path finger (null when the collection does not exist).</summary>
    internal SortedDocumentProbe? ProbeDocuments(IPageReader pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = Resolve(pages);
        return collection is null ? null : new SortedDocumentProbe(Primary(collection), pages, _database.Catalog.FilePath);
    }

    private (IndexInfo? Index, CollectionInfo? Collection) OpenIndexScan(IPageReader pages, string indexName, KeyRange fieldKeyRange)
    {
        ArgumentNullException.ThrowIfNull(pages);
        ArgumentNullException.ThrowIfNull(indexName);
        ArgumentNullException.ThrowIfNull(fieldKeyRange);
        var collection = Resolve(pages);
        if (collection is null)
        {
            return (null, null);
        }

        var index = collection.FindIndex(indexName)
            ?? throw new BLiteException($"Collection '{Name}' has no index named '{indexName}'.");
        return (index, collection);
    }

    /// <summary>
    /// Entry keys are field key ++ primary key, so bounds on field keys become prefix bounds:
    /// an inclusive upper bound must take every entry that starts with it (up to its prefix
    /// successor), and an exclusive lower bound must skip them all.
    /// </summary>
    internal static KeyRange ToEntryRange(KeyRange fieldKeyRange)
    {
        byte[]? lower = null;
        var lowerInclusive = true;
        if (fieldKeyRange.HasLowerBound)
        {
            if (fieldKeyRange.LowerInclusive)
            {
                lower = fieldKeyRange.LowerBound.ToArray();
            }
            else
            {
                var successor = KeyRange.Prefix(fieldKeyRange.LowerBound);
                if (!successor.HasUpperBound)
                {
                    return EmptyRange;
                }

                lower = successor.UpperBound.ToArray();
            }
        }

        byte[]? upper = null;
        var upperInclusive = false;
        if (fieldKeyRange.HasUpperBound)
        {
            if (fieldKeyRange.UpperInclusive)
            {
                var successor = KeyRange.Prefix(fieldKeyRange.UpperBound);
                if (successor.HasUpperBound)
                {
                    upper = successor.UpperBound.ToArray();
                }
            }
            else
            {
                upper = fieldKeyRange.UpperBound.ToArray();
            }
        }

        return (lower, upper) switch
        {
            (null, null) => KeyRange.All,
            (not null, null) => KeyRange.From(lower, lowerInclusive),
            (null, not null) => KeyRange.To(upper, upperInclusive),
            _ => KeyRange.Between(lower, lowerInclusive, upper, upperInclusive),
        };
    }

    private static readonly KeyRange EmptyRange = KeyRange.Between([0x00], false, [0x00], false);
}

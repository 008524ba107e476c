using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Core.Collections.Catalog;
using BLite.Core.Collections.Indexes;
using BLite.Core.BTrees;
using BLite.Core.Documents;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

// Every write first computes and checks everything that can fail (malformed bytes, missing or
// oversized keys, duplicate ids, unique violations) and only then writes, so a refused operation
// leaves the transaction exactly as it was and the rest of the transaction can still commit.
internal sealed partial class RawCollection
{
    /// <summary>
    /// Stores a new document. Throws <see cref="BLiteUniqueConstraintException"/> (index
    /// <c>_id</c>) when the id exists, or naming the unique index that already has a value.
    /// </summary>
    public void Insert(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        ArgumentNullException.ThrowIfNull(pages);
        DocumentValidator.Validate(document);
        InsertWellFormed(pages, document);
    }

    /// <summary>Replaces the document with the same <c>_id</c>; false (and nothing changed) when there is none.</summary>
    public bool Update(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        ArgumentNullException.ThrowIfNull(pages);
        DocumentValidator.Validate(document);
        return UpdateWellFormed(pages, document);
    }

    /// <summary>Inserts or replaces by <c>_id</c> with one validation and one lookup. True when the document was new.</summary>
    public bool Upsert(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        ArgumentNullException.ThrowIfNull(pages);
        DocumentValidator.Validate(document);
        return UpsertWellFormed(pages, document);
    }

    internal void InsertWellFormed(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        InsertWellFormedCore(pages, document);
        CountWritten();
    }

    internal bool UpdateWellFormed(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        var updated = UpdateWellFormedCore(pages, document);
        if (updated)
        {
            CountWritten();
        }

        return updated;
    }

    internal bool UpsertWellFormed(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        var inserted = UpsertWellFormedCore(pages, document);
        CountWritten();
        return inserted;
    }

    // The *WellFormed forms skip the full validation walk (about a third of the CPU of an insert
    // of a typical 1.5 KB document). Only callers whose bytes are well formed by construction may
    // use them: the typed API, for bytes a BLite-generated mapper has just written through
    // BsonSpanWriter. Bytes from users (this class's public methods, the schemaless API) are
    // always validated.
    [SkipLocalsInit]
    private void InsertWellFormedCore(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        var id = FindId(document);
        using var keyScratch = new KeyScratch(_database.MaxKeySize, stackalloc byte[StackKeyLimit]);
        var primaryKey = EncodePrimaryKey(document, id, keyScratch.Span);
        var collection = Resolve(pages);

        // With a unique secondary index a duplicate id must be reported as such before the
        // secondary check could name the other index; otherwise the tree's own refusal is the check.
        if (collection is not null && HasUniqueIndex(collection) && Primary(collection).TryGet(pages, primaryKey, out _))
        {
            ThrowDuplicateId(primaryKey);
        }

        InsertNew(pages, document, id, primaryKey, collection);
        if (collection is { JournalsChanges: true })
        {
            JournalWrite(pages, ChangeOperation.Insert, document, null);
        }
    }

    [SkipLocalsInit]
    private bool UpdateWellFormedCore(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        var id = FindId(document);
        using var keyScratch = new KeyScratch(_database.MaxKeySize, stackalloc byte[StackKeyLimit]);
        var primaryKey = EncodePrimaryKey(document, id, keyScratch.Span);
        var collection = Resolve(pages);
        if (collection is null)
        {
            return false;
        }

        if (collection.Indexes.Count == 0 && collection.VectorIndexes.Count == 0 && !KeepsBeforeImages(collection))
        {
            // Without secondary indexes the old document is not needed: one descent replaces it.
            if (!Primary(collection).Replace(pages, primaryKey, document))
            {
                return false;
            }

            _database.Catalog.PersistNewFieldNames(pages);
            if (collection.JournalsChanges)
            {
                JournalWrite(pages, ChangeOperation.Update, document, null);
            }

            return true;
        }

        if (!Primary(collection).TryGet(pages, primaryKey, out var old))
        {
            return false;
        }

        ReplaceJournaled(pages, document, primaryKey, collection, old);
        return true;
    }

    /// <summary><see cref="ReplaceExisting"/>, journaling the update when the collection has a change feed.</summary>
    private void ReplaceJournaled(IPageWriter pages, ReadOnlySpan<byte> document, ReadOnlySpan<byte> primaryKey, CollectionInfo collection, ReadOnlyMemory<byte> old)
    {
        // The old image lives in a page this replacement rewrites: copy it first.
        var before = KeepsBeforeImages(collection) ? old.ToArray() : null;
        ReplaceExisting(pages, document, primaryKey, collection, old.Span);
        if (collection.JournalsChanges)
        {
            JournalWrite(pages, ChangeOperation.Update, document, before);
        }
    }

    [SkipLocalsInit]
    private bool UpsertWellFormedCore(IPageWriter pages, ReadOnlySpan<byte> document)
    {
        var id = FindId(document);
        using var keyScratch = new KeyScratch(_database.MaxKeySize, stackalloc byte[StackKeyLimit]);
        var primaryKey = EncodePrimaryKey(document, id, keyScratch.Span);
        var collection = Resolve(pages);
        if (collection is not null && Primary(collection).TryGet(pages, primaryKey, out var old))
        {
            ReplaceJournaled(pages, document, primaryKey, collection, old);
            return false;
        }

        InsertNew(pages, document, id, primaryKey, collection);
        if (collection is { JournalsChanges: true })
        {
            JournalWrite(pages, ChangeOperation.Insert, document, null);
        }

        return true;
    }

    private void InsertNew(IPageWriter pages, ReadOnlySpan<byte> document, FieldValueRef id, ReadOnlySpan<byte> primaryKey, CollectionInfo? collection)
    {
        List<byte[]>[]? entries = null;
        float[]?[]? vectors = null;
        if (collection is null)
        {
            _database.Catalog.PersistNewFieldNames(pages);
            collection = _database.Catalog.CreateCollection(pages, Name);
            if (!Primary(collection).Insert(pages, primaryKey, document))
            {
                throw new BLiteCorruptionException(_database.Catalog.FilePath, null, $"the primary index of '{Name}' changed under its only writer.");
            }
        }
        else
        {
            if (collection.Indexes.Count > 0)
            {
                entries = BuildAllKeys(document, collection, primaryKey);
                CheckUnique(pages, collection, entries, primaryKey);
            }

            vectors = ExtractVectors(document, collection);

            // The tree refuses a present key before changing any page, so a duplicate still
            // leaves the transaction as it was.
            if (!Primary(collection).Insert(pages, primaryKey, document))
            {
                ThrowDuplicateId(primaryKey);
            }

            _database.Catalog.PersistNewFieldNames(pages);
        }

        if (entries is not null)
        {
            for (var i = 0; i < entries.Length; i++)
            {
                InsertEntries(pages, collection.Indexes[i], entries[i], primaryKey);
            }
        }

        AddVectors(pages, collection, vectors, primaryKey);
        DocumentCount.Add(pages, collection, 1);
        RaiseSequenceToId(pages, document, id, collection);
    }

    /// <summary>Only keys that differ between the old and new document are touched.</summary>
    private void ReplaceExisting(IPageWriter pages, ReadOnlySpan<byte> document, ReadOnlySpan<byte> primaryKey, CollectionInfo collection, ReadOnlySpan<byte> old)
    {
        var removed = new List<byte[]>[collection.Indexes.Count];
        var added = new List<byte[]>[collection.Indexes.Count];
        for (var i = 0; i < collection.Indexes.Count; i++)
        {
            var index = collection.Indexes[i];
            var oldKeys = BuildKeys(old, index, primaryKey);
            var newKeys = BuildKeys(document, index, primaryKey);
            (removed[i], added[i]) = SortedKeyDiff.Compute(oldKeys, newKeys);
        }

        CheckUnique(pages, collection, added, primaryKey);
        var vectors = ExtractVectors(document, collection);
        var previousVectors = ExtractVectors(old, collection);
        _database.Catalog.PersistNewFieldNames(pages);
        Primary(collection).Upsert(pages, primaryKey, document);
        for (var i = 0; i < collection.Indexes.Count; i++)
        {
            DeleteEntries(pages, collection.Indexes[i], removed[i], primaryKey);
            InsertEntries(pages, collection.Indexes[i], added[i], primaryKey);
        }

        ReplaceVectors(pages, collection, previousVectors, vectors, primaryKey);
    }

    /// <summary>
    /// The next value of the collection's sequence, for int and long auto ids. Transactional:
    /// a committed value is never handed out again (a rolled-back one may be), and inserting an
    /// explicit integer id above the sequence moves the sequence past it.
    /// </summary>
    public long NextSequenceValue(IPageWriter pages)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var collection = ResolveOrCreate(pages);
        var stats = pages.WritePage(collection.StatsPage).Span;
        var next = checked(CollectionStats.ReadSequence(stats) + 1);
        CollectionStats.WriteSequence(stats, next);
        return next;
    }

    /// <summary>
    /// Moves the collection's sequence up to <paramref name="value"/> (never down): a copy of a
    /// collection carries its source's sequence, so ids handed out before the copy are never
    /// handed out again, even those of documents deleted since.
    /// </summary>
    public void RaiseSequenceValue(IPageWriter pages, long value)
    {
        ArgumentNullException.ThrowIfNull(pages);
        var stats = pages.WritePage(ResolveOrCreate(pages).StatsPage).Span;
        if (value > CollectionStats.ReadSequence(stats))
        {
            CollectionStats.WriteSequence(stats, value);
        }
    }

    private List<byte[]>[] BuildAllKeys(ReadOnlySpan<byte> document, CollectionInfo collection, ReadOnlySpan<byte> primaryKey)
    {
        var entries = new List<byte[]>[collection.Indexes.Count];
        for (var i = 0; i < entries.Length; i++)
        {
            entries[i] = BuildKeys(document, collection.Indexes[i], primaryKey);
        }

        return entries;
    }

    private void CheckUnique(IPageReader pages, CollectionInfo collection, List<byte[]>[] addedKeys, ReadOnlySpan<byte> primaryKey)
    {
        for (var i = 0; i < addedKeys.Length; i++)
        {
            var index = collection.Indexes[i];
            if (!index.Definition.Unique)
            {
                continue;
            }

            var tree = BTree.Open(index.RootPageId);
            foreach (var fieldKey in addedKeys[i])
            {
                if (IndexEntries.TryFindOtherOwner(tree, pages, fieldKey, primaryKey))
                {
                    throw new BLiteUniqueConstraintException(Name, index.Definition.Name, IndexKeyText.Describe(fieldKey));
                }
            }
        }
    }

    private static void InsertEntries(IPageWriter pages, IndexInfo index, List<byte[]> fieldKeys, ReadOnlySpan<byte> primaryKey)
    {
        if (fieldKeys.Count == 0)
        {
            return;
        }

        var tree = BTree.Open(index.RootPageId);
        Span<byte> value = stackalloc byte[SecondaryEntry.ValueSize];
        foreach (var fieldKey in fieldKeys)
        {
            SecondaryEntry.WriteValue(value, fieldKey.Length);
            tree.Insert(pages, SecondaryEntry.ComposeKey(fieldKey, primaryKey), value);
        }
    }

    private static void DeleteEntries(IPageWriter pages, IndexInfo index, List<byte[]> fieldKeys, ReadOnlySpan<byte> primaryKey)
    {
        if (fieldKeys.Count == 0)
        {
            return;
        }

        var tree = BTree.Open(index.RootPageId);
        foreach (var fieldKey in fieldKeys)
        {
            tree.Delete(pages, SecondaryEntry.ComposeKey(fieldKey, primaryKey));
        }
    }

    private static void RaiseSequenceToId(IPageWriter pages, ReadOnlySpan<byte> document, FieldValueRef id, CollectionInfo collection)
    {
        long value;
        var reader = new BsonSpanReader(id.Bytes(document));
        switch (id.Type)
        {
            case BsonType.Int32:
                value = reader.ReadInt32();
                break;
            case BsonType.Int64:
                value = reader.ReadInt64();
                break;
            default:
                return;
        }

        // Read first: the page is copied and logged only when the sequence really moves.
        if (value > CollectionStats.ReadSequence(pages.ReadPage(collection.StatsPage).Span))
        {
            CollectionStats.WriteSequence(pages.WritePage(collection.StatsPage).Span, value);
        }
    }

    // A primary key never exceeds the tree's key limit (about 2 KB with 8 KB pages), so it is
    // encoded on the stack; only the largest page sizes need a pooled buffer.
    private const int StackKeyLimit = 2048;

    private FieldValueRef FindId(ReadOnlySpan<byte> document)
    {
        if (!FieldValueExtractor.TryFindTopLevel(document, 0, out var id))
        {
            throw new BLiteException($"A document stored in collection '{Name}' needs an _id field.");
        }

        return id;
    }

    private ReadOnlySpan<byte> EncodePrimaryKey(ReadOnlySpan<byte> document, FieldValueRef id, Span<byte> buffer) =>
        buffer[..IndexKeyCodec.EncodePrimaryKey(document, id, buffer[.._database.MaxKeySize])];

    private static bool HasUniqueIndex(CollectionInfo collection)
    {
        for (var i = 0; i < collection.Indexes.Count; i++)
        {
            if (collection.Indexes[i].Definition.Unique)
            {
                return true;
            }
        }

        return false;
    }

    [DoesNotReturn]
    private void ThrowDuplicateId(ReadOnlySpan<byte> primaryKey) =>
        throw new BLiteUniqueConstraintException(Name, BLiteUniqueConstraintException.PrimaryIndexName, IndexKeyText.Describe(primaryKey));
}

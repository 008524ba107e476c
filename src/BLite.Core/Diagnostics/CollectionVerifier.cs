using BLite.Bson;
using BLite.Core.Collections.Catalog;
using BLite.Core.Collections.Indexes;
using BLite.Core.BTrees;
using BLite.Core.Collections;
using BLite.Core.Documents;
using BLite.Core.Storage;

namespace BLite.Core.Diagnostics;

/// <summary>
/// The collections layer's part of Verify: the catalog is well formed, every document is
/// reachable exactly once under the key its own <c>_id</c> encodes to, counters match, every
/// field id a document uses is persisted, and each secondary index holds exactly the entries its
/// documents produce (every entry matches its document and vice versa). Problems are reported,
/// never repaired.
/// </summary>
internal static class CollectionVerifier
{
    private const int MaxProblems = 100;

    public static void VerifyContent(DocumentDatabase database, IPageReader pages, List<string> problems)
    {
        var anchor = database.Catalog.ReadAnchor(pages);
        VerifyFieldNames(pages, anchor, database.Catalog.FilePath, problems);
        var snapshot = database.Catalog.GetSnapshot(pages);
        foreach (var collection in snapshot.Collections)
        {
            VerifyCollection(database, pages, collection, anchor.PersistedFieldCount, problems);
            if (problems.Count >= MaxProblems)
            {
                return;
            }
        }
    }

    private static void VerifyFieldNames(IPageReader pages, CatalogAnchor anchor, string filePath, List<string> problems)
    {
        var tree = BTree.Open(anchor.TreeRoot);
        var names = CatalogTreeScan.WithPrefix(tree, pages, [0x02]);
        if (names.Count != anchor.PersistedFieldCount)
        {
            problems.Add($"catalog: {names.Count} field names stored but page 1 says {anchor.PersistedFieldCount}.");
            return;
        }

        try
        {
            BsonFieldDictionary.FromNames(CatalogStore.LoadFieldNames(pages, filePath));
        }
        catch (Exception ex) when (ex is ArgumentException or BLiteException)
        {
            problems.Add($"catalog: the persisted field names are inconsistent: {ex.Message}");
        }
    }

    private static void VerifyCollection(DocumentDatabase database, IPageReader pages, CollectionInfo collection, uint persistedFieldCount, List<string> problems)
    {
        var where = $"collection '{collection.Name}'";
        var stats = pages.ReadPage(collection.StatsPage).Span;
        if (!CollectionStats.HasMagic(stats) || CollectionStats.ReadCollectionId(stats) != collection.Id)
        {
            problems.Add($"{where}: stats page {collection.StatsPage} does not belong to collection id {collection.Id}.");
            return;
        }

        var handle = database.GetRawCollection(collection.Name);
        var expectedEntries = new long[collection.Indexes.Count];
        long documents = 0;
        long maxIntegerId = 0;
        var cursor = TreeCursor.Open(BTree.Open(collection.PrimaryRoot), pages, KeyRange.All, descending: false);
        while (cursor.MoveNext() && problems.Count < MaxProblems)
        {
            documents++;
            var key = cursor.Key;
            var document = cursor.Value.Span;
            try
            {
                DocumentValidator.Validate(document);
                if (!handle.GetPrimaryKey(document).AsSpan().SequenceEqual(key))
                {
                    problems.Add($"{where}: the document stored under {IndexKeyText.Describe(key)} has a different _id.");
                    continue;
                }

                if (MaxFieldId(document) is { } maxId && maxId >= persistedFieldCount)
                {
                    problems.Add($"{where}: document {IndexKeyText.Describe(key)} uses field id {maxId}, but only {persistedFieldCount} names are persisted.");
                }

                maxIntegerId = Math.Max(maxIntegerId, IntegerId(document));
                for (var i = 0; i < collection.Indexes.Count; i++)
                {
                    expectedEntries[i] += IndexKeyBuilder.Build(document, collection.Indexes[i], database.Fields, collection.Name, database.MaxKeySize - key.Length).Count;
                }
            }
            catch (BLiteException ex)
            {
                problems.Add($"{where}: document {IndexKeyText.Describe(key)} is unreadable: {ex.Message}");
            }
        }

        var counted = DocumentCount.Read(pages, collection);
        if (counted != documents)
        {
            problems.Add($"{where}: the document count says {counted} documents but the primary index holds {documents}.");
        }

        if (CollectionStats.ReadSequence(stats) < maxIntegerId)
        {
            problems.Add($"{where}: the sequence is at {CollectionStats.ReadSequence(stats)} below the largest integer id {maxIntegerId}.");
        }

        for (var i = 0; i < collection.Indexes.Count; i++)
        {
            VerifyIndex(database, pages, collection, collection.Indexes[i], expectedEntries[i], problems);
        }

        foreach (var vectorIndex in collection.VectorIndexes)
        {
            VectorIndexVerifier.Verify(handle, pages, collection, vectorIndex, problems);
        }
    }

    private static void VerifyIndex(DocumentDatabase database, IPageReader pages, CollectionInfo collection, IndexInfo index, long expectedEntries, List<string> problems)
    {
        var where = $"index '{index.Definition.Name}' of collection '{collection.Name}'";
        var primary = BTree.Open(collection.PrimaryRoot);
        var cursor = TreeCursor.Open(BTree.Open(index.RootPageId), pages, KeyRange.All, descending: false);
        long entries = 0;
        byte[]? previousFieldKey = null;
        while (cursor.MoveNext() && problems.Count < MaxProblems)
        {
            entries++;
            var key = cursor.Key;
            var value = cursor.Value.Span;
            if (value.Length != SecondaryEntry.ValueSize || SecondaryEntry.ReadFieldKeyLength(value) > key.Length)
            {
                problems.Add($"{where}: entry {IndexKeyText.Describe(key)} has a malformed value.");
                continue;
            }

            var fieldKey = SecondaryEntry.FieldKeyOf(key, value);
            var primaryKey = SecondaryEntry.PrimaryKeyOf(key, value);
            if (!primary.TryGet(pages, primaryKey, out var document))
            {
                problems.Add($"{where}: entry {IndexKeyText.Describe(fieldKey)} points to {IndexKeyText.Describe(primaryKey)}, which has no document.");
                continue;
            }

            if (!ContainsKey(IndexKeyBuilder.Build(document.Span, index, database.Fields, collection.Name, database.MaxKeySize - primaryKey.Length), fieldKey))
            {
                problems.Add($"{where}: entry {IndexKeyText.Describe(fieldKey)} does not match document {IndexKeyText.Describe(primaryKey)}.");
            }

            if (index.Definition.Unique)
            {
                if (previousFieldKey is not null && fieldKey.SequenceEqual(previousFieldKey))
                {
                    problems.Add($"{where}: the unique value {IndexKeyText.Describe(fieldKey)} appears more than once.");
                }

                previousFieldKey = fieldKey.ToArray();
            }
        }

        if (entries != expectedEntries)
        {
            problems.Add($"{where}: holds {entries} entries but its documents produce {expectedEntries}.");
        }
    }

    private static bool ContainsKey(List<byte[]> keys, ReadOnlySpan<byte> key)
    {
        foreach (var candidate in keys)
        {
            if (key.SequenceEqual(candidate))
            {
                return true;
            }
        }

        return false;
    }

    private static ushort? MaxFieldId(ReadOnlySpan<byte> document)
    {
        var reader = new BsonSpanReader(document);
        reader.ReadDocumentStart();
        ushort? max = null;
        MaxFieldIdIn(ref reader, ref max);
        return max;
    }

    private static void MaxFieldIdIn(ref BsonSpanReader reader, ref ushort? max)
    {
        while (reader.TryReadFieldHeader(out var type, out var id))
        {
            max = max is { } current && current >= id ? current : id;
            MaxFieldIdInValue(ref reader, type, ref max);
        }
    }

    private static void MaxFieldIdInValue(ref BsonSpanReader reader, BsonType type, ref ushort? max)
    {
        switch (type)
        {
            case BsonType.Document:
                reader.ReadDocumentStart();
                MaxFieldIdIn(ref reader, ref max);
                break;
            case BsonType.Array:
                reader.ReadArrayStart();
                while (reader.TryReadItemHeader(out var itemType))
                {
                    MaxFieldIdInValue(ref reader, itemType, ref max);
                }

                break;
            default:
                reader.SkipValue(type);
                break;
        }
    }

    private static long IntegerId(ReadOnlySpan<byte> document)
    {
        if (!FieldValueExtractor.TryFindTopLevel(document, 0, out var id))
        {
            return 0;
        }

        var reader = new BsonSpanReader(id.Bytes(document));
        return id.Type switch
        {
            BsonType.Int32 => reader.ReadInt32(),
            BsonType.Int64 => reader.ReadInt64(),
            _ => 0,
        };
    }
}

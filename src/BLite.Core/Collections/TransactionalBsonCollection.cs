using BLite.Bson;
using BLite.Core.BTrees;
using BLite.Core.Storage;

namespace BLite.Core.Collections;

/// <summary>
/// A schemaless collection of <see cref="BsonDocument"/>s. Every operation has an overload that
/// takes the transaction (write operations an <see cref="IPageWriter"/>, reads any
/// <see cref="IPageReader"/>) and one that runs in a transaction of its own and commits it.
/// Documents are serialized with the database's field dictionary; a document inserted without
/// <c>_id</c> gets a new <see cref="ObjectId"/>, set on the document itself.
/// </summary>
internal sealed partial class TransactionalBsonCollection
{
    internal TransactionalBsonCollection(RawCollection documents)
    {
        Documents = documents;
    }

    public string Name => Documents.Name;

    /// <summary>The raw-bytes operations underneath.</summary>
    public RawCollection Documents { get; }

    private DocumentDatabase Database => Documents.Database;

    private BsonFieldDictionary Fields => Database.Fields;

    /// <summary>Inserts the document and returns its <c>_id</c> (generated when missing).</summary>
    public BsonValue Insert(IPageWriter pages, BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (!document.TryGetValue(BsonFieldDictionary.IdFieldName, out var id))
        {
            id = ObjectId.NewObjectId();
            document[BsonFieldDictionary.IdFieldName] = id;
        }

        Documents.Insert(pages, document.ToBytes(Fields));
        return id;
    }

    public bool Update(IPageWriter pages, BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        return Documents.Update(pages, document.ToBytes(Fields));
    }

    /// <summary>Inserts or replaces by <c>_id</c>; true when the document was new.</summary>
    public bool Upsert(IPageWriter pages, BsonDocument document)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (!document.ContainsKey(BsonFieldDictionary.IdFieldName))
        {
            Insert(pages, document);
            return true;
        }

        return Documents.Upsert(pages, document.ToBytes(Fields));
    }

    public bool Delete(IPageWriter pages, BsonValue id) => Documents.Delete(pages, IndexKeys.EncodeId(id));

    public BsonDocument? FindById(IPageReader pages, BsonValue id) =>
        Documents.TryFindById(pages, IndexKeys.EncodeId(id), out var bytes) ? BsonDocument.FromBytes(bytes.Span, Fields) : null;

    public long Count(IPageReader pages) => Documents.Count(pages);

    /// <summary>Every document in <c>_id</c> order (or reverse). Enumerate while the transaction is open.</summary>
    public IEnumerable<BsonDocument> FindAll(IPageReader pages, bool descending = false) =>
        Read(Documents.Scan(pages, KeyRange.All, descending));

    /// <summary>Documents whose <c>_id</c> lies between the bounds (null: unbounded), in <c>_id</c> order.</summary>
    public IEnumerable<BsonDocument> FindByIdRange(IPageReader pages, BsonValue? lower, BsonValue? upper,
        bool lowerInclusive = true, bool upperInclusive = true, bool descending = false) =>
        Read(Documents.Scan(pages, BuildRange(lower is null ? null : IndexKeys.EncodeId(lower.Value), lowerInclusive,
            upper is null ? null : IndexKeys.EncodeId(upper.Value), upperInclusive), descending));

    /// <summary>
    /// Documents whose indexed value equals <paramref name="values"/> (all fields of a composite
    /// index, or its leading ones), in index order.
    /// </summary>
    public IEnumerable<BsonDocument> FindByIndex(IPageReader pages, string indexName, params BsonValue[] values) =>
        Read(Documents.ScanIndex(pages, indexName, KeyRange.Prefix(IndexKeys.Encode(Fields, values))));

    /// <summary>Documents whose indexed value lies between the bounds (null: unbounded), in index order.</summary>
    public IEnumerable<BsonDocument> FindByIndexRange(IPageReader pages, string indexName, BsonValue? lower, BsonValue? upper,
        bool lowerInclusive = true, bool upperInclusive = true, bool descending = false) =>
        Read(Documents.ScanIndex(pages, indexName, BuildRange(lower is null ? null : IndexKeys.Encode(Fields, lower.Value), lowerInclusive,
            upper is null ? null : IndexKeys.Encode(Fields, upper.Value), upperInclusive), descending));

    public bool EnsureIndex(IPageWriter pages, IndexDefinition definition, IProgress<long>? progress = null) => Documents.EnsureIndex(pages, definition, progress);

    public bool DropIndex(IPageWriter pages, string indexName) => Documents.DropIndex(pages, indexName);

    public IReadOnlyList<IndexDefinition> GetIndexes(IPageReader pages) => Documents.GetIndexes(pages);

    private IEnumerable<BsonDocument> Read(DocumentCursor cursor)
    {
        while (cursor.MoveNext())
        {
            yield return BsonDocument.FromBytes(cursor.Document.Span, Fields);
        }
    }

    internal static KeyRange BuildRange(byte[]? lower, bool lowerInclusive, byte[]? upper, bool upperInclusive) =>
        (lower, upper) switch
        {
            (null, null) => KeyRange.All,
            (not null, null) => KeyRange.From(lower, lowerInclusive),
            (null, not null) => KeyRange.To(upper, upperInclusive),
            _ => KeyRange.Between(lower, lowerInclusive, upper, upperInclusive),
        };
}

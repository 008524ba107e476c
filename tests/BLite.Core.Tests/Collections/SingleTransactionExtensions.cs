using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Testing;

/// <summary>
/// Test shorthand for engine-layer tests: each call runs in a transaction of its own (a write
/// commits before returning; a lazy read keeps its snapshot open while enumerating). The engine
/// itself offers only the explicit form, with the transaction passed in; applications use the
/// public <c>BsonDocumentCollection</c>, which has these operations once.
/// </summary>
internal static class SingleTransactionExtensions
{
    public static BsonValue Insert(this TransactionalBsonCollection collection, BsonDocument document) =>
        collection.Write(pages => collection.Insert(pages, document));

    public static int InsertMany(this TransactionalBsonCollection collection, IEnumerable<BsonDocument> documents) =>
        collection.Write(pages =>
        {
            var count = 0;
            foreach (var document in documents)
            {
                collection.Insert(pages, document);
                count++;
            }

            return count;
        });

    public static bool Update(this TransactionalBsonCollection collection, BsonDocument document) =>
        collection.Write(pages => collection.Update(pages, document));

    public static bool Upsert(this TransactionalBsonCollection collection, BsonDocument document) =>
        collection.Write(pages => collection.Upsert(pages, document));

    public static bool Delete(this TransactionalBsonCollection collection, BsonValue id) =>
        collection.Write(pages => collection.Delete(pages, id));

    public static int DeleteMany(this TransactionalBsonCollection collection, QueryFilter? filter) =>
        collection.Write(pages => collection.DeleteMany(pages, filter));

    public static int DeleteMany(this TransactionalBsonCollection collection, string jsonFilter) =>
        collection.Write(pages => collection.DeleteMany(pages, jsonFilter));

    public static bool EnsureIndex(this TransactionalBsonCollection collection, IndexDefinition definition) =>
        collection.Write(pages => collection.EnsureIndex(pages, definition));

    public static bool EnsureIndex(this TransactionalBsonCollection collection, string indexName, string fieldPath, bool unique = false) =>
        collection.EnsureIndex(new IndexDefinition(indexName, fieldPath, unique));

    public static bool DropIndex(this TransactionalBsonCollection collection, string indexName) =>
        collection.Write(pages => collection.DropIndex(pages, indexName));

    public static BsonDocument? FindById(this TransactionalBsonCollection collection, BsonValue id) =>
        collection.Read(pages => collection.FindById(pages, id));

    public static long Count(this TransactionalBsonCollection collection) =>
        collection.Read(pages => collection.Count(pages));

    public static long Count(this TransactionalBsonCollection collection, QueryFilter? filter) =>
        collection.Read(pages => collection.Count(pages, filter));

    public static long Count(this TransactionalBsonCollection collection, string jsonFilter) =>
        collection.Read(pages => collection.Count(pages, jsonFilter));

    public static IReadOnlyList<IndexDefinition> GetIndexes(this TransactionalBsonCollection collection) =>
        collection.Read(pages => collection.GetIndexes(pages));

    public static string Explain(this TransactionalBsonCollection collection, QueryFilter? filter,
        IReadOnlyList<SortKey>? sort = null, long skip = 0, long? take = null) =>
        collection.Read(pages => collection.Explain(pages, filter, sort, skip, take));

    public static IEnumerable<BsonDocument> FindAll(this TransactionalBsonCollection collection, bool descending = false) =>
        collection.Stream(pages => collection.FindAll(pages, descending));

    public static IEnumerable<BsonDocument> FindByIdRange(this TransactionalBsonCollection collection, BsonValue? lower, BsonValue? upper,
        bool lowerInclusive = true, bool upperInclusive = true, bool descending = false) =>
        collection.Stream(pages => collection.FindByIdRange(pages, lower, upper, lowerInclusive, upperInclusive, descending));

    public static IEnumerable<BsonDocument> FindByIndex(this TransactionalBsonCollection collection, string indexName, params BsonValue[] values) =>
        collection.Stream(pages => collection.FindByIndex(pages, indexName, values));

    public static IEnumerable<BsonDocument> FindByIndexRange(this TransactionalBsonCollection collection, string indexName, BsonValue? lower, BsonValue? upper,
        bool lowerInclusive = true, bool upperInclusive = true, bool descending = false) =>
        collection.Stream(pages => collection.FindByIndexRange(pages, indexName, lower, upper, lowerInclusive, upperInclusive, descending));

    public static IEnumerable<BsonDocument> Find(this TransactionalBsonCollection collection, QueryFilter? filter,
        IReadOnlyList<SortKey>? sort = null, long skip = 0, long? take = null) =>
        collection.Stream(pages => collection.Find(pages, filter, sort, skip, take));

    public static IEnumerable<BsonDocument> Find(this TransactionalBsonCollection collection, string jsonFilter,
        IReadOnlyList<SortKey>? sort = null, long skip = 0, long? take = null) =>
        collection.Stream(pages => collection.Find(pages, jsonFilter, sort, skip, take));

    private static T Write<T>(this TransactionalBsonCollection collection, Func<IPageWriter, T> operation)
    {
        using var write = collection.Documents.Database.BeginWrite();
        var result = operation(write);
        write.Commit();
        return result;
    }

    private static T Read<T>(this TransactionalBsonCollection collection, Func<IPageReader, T> operation)
    {
        using var read = collection.Documents.Database.BeginRead();
        return operation(read);
    }

    private static IEnumerable<BsonDocument> Stream(this TransactionalBsonCollection collection, Func<IPageReader, IEnumerable<BsonDocument>> query)
    {
        using var read = collection.Documents.Database.BeginRead();
        foreach (var document in query(read))
        {
            yield return document;
        }
    }
}

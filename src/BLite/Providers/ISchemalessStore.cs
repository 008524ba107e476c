using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Providers;

/// <summary>
/// The storage operations of one schemaless collection on a server store, behind
/// <see cref="BsonDocumentCollection"/>. Documents are addressed by their primary key: the
/// <c>_id</c> through the embedded engine's order-preserving key encoding, computed (and the
/// missing <c>_id</c> generated) by the collection, so every provider orders and names ids alike.
/// Operations join the context's current transaction, as the typed collections' do.
/// </summary>
internal interface ISchemalessStore
{
    /// <summary>False when a document with this key exists already (nothing is written).</summary>
    bool Insert(byte[] key, BsonDocument document);

    bool Update(byte[] key, BsonDocument document);

    /// <summary>True when the document was new.</summary>
    bool Upsert(byte[] key, BsonDocument document);

    bool Delete(byte[] key);

    BsonDocument? FindById(byte[] key);

    /// <summary>Matching documents; outside a transaction streamed, inside one read up front.</summary>
    IEnumerable<BsonDocument> Find(DocumentQuery query);

    long Count(DocumentQuery query);

    int DeleteMany(DocumentQuery query);

    string Explain(DocumentQuery query);

    /// <summary>Creates the index over the stored documents; false when an identical one exists (the embedded engine's rules and errors).</summary>
    bool EnsureIndex(Core.Collections.IndexDefinition definition);

    bool DropIndex(string indexName);

    IReadOnlyList<Core.Collections.IndexDefinition> GetIndexes();

    Task<bool> InsertAsync(byte[] key, BsonDocument document, CancellationToken cancellationToken);

    Task<bool> UpdateAsync(byte[] key, BsonDocument document, CancellationToken cancellationToken);

    Task<bool> UpsertAsync(byte[] key, BsonDocument document, CancellationToken cancellationToken);

    Task<bool> DeleteAsync(byte[] key, CancellationToken cancellationToken);

    Task<BsonDocument?> FindByIdAsync(byte[] key, CancellationToken cancellationToken);

    IAsyncEnumerable<BsonDocument> FindAsync(DocumentQuery query, CancellationToken cancellationToken);

    Task<long> CountAsync(DocumentQuery query, CancellationToken cancellationToken);

    Task<int> DeleteManyAsync(DocumentQuery query, CancellationToken cancellationToken);
}

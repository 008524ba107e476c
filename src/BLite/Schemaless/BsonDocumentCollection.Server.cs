using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core;
using BLite.Core.Collections;
using BLite.Core.Collections.Indexes;

namespace BLite;

// On a server store the collection computes ids and keys itself, so each provider stores the same
// primary key (the embedded key encoding of _id) and reports the same errors as the engine does.
public sealed partial class BsonDocumentCollection
{
    /// <summary>The document's <c>_id</c> (a new ObjectId, set on it, when missing) and its key.</summary>
    private (BsonValue Id, byte[] Key) AssignId(BsonDocument document)
    {
        if (!document.TryGetValue(BsonFieldDictionary.IdFieldName, out var id))
        {
            id = ObjectId.NewObjectId();
            document[BsonFieldDictionary.IdFieldName] = id;
        }

        return (id, StoredKey(id));
    }

    private byte[] KeyOf(BsonDocument document) =>
        document.TryGetValue(BsonFieldDictionary.IdFieldName, out var id)
            ? StoredKey(id)
            : throw new BLiteException($"A document stored in collection '{Name}' needs an _id field.");

    /// <summary>
    /// The key of a stored document's <c>_id</c>, refusing the ids the engine refuses with its
    /// words. A compound (document) id is refused too: jsonb does not keep a document's field order,
    /// which is part of a compound id's identity, so the document read back would not name itself.
    /// </summary>
    private byte[] StoredKey(BsonValue id) => id.Type switch
    {
        BsonType.Null => throw new BLiteException("A document's _id cannot be null."),
        BsonType.Array => throw new BLiteException("A document's _id cannot be an array."),
        BsonType.Document => throw new NotSupportedException(
            $"Schemaless collection '{Name}' on a server provider takes scalar _id values only: jsonb does not keep a compound _id's field order, which is part of its identity."),
        _ => IndexKeys.EncodeId(id),
    };

    private BLiteUniqueConstraintException DuplicateId(byte[] key) =>
        new(Name, BLiteUniqueConstraintException.PrimaryIndexName, IndexKeyText.Describe(key));

    /// <summary>All or nothing, as embedded: in the flow's transaction, or in one of its own.</summary>
    private int InsertAllOnServer(IEnumerable<BsonDocument> documents)
    {
        using var own = _context.CurrentTransaction is null ? _context.BeginTransaction() : null;
        var count = 0;
        foreach (var document in documents)
        {
            ArgumentNullException.ThrowIfNull(document, nameof(documents));
            Insert(document);
            count++;
        }

        own?.Commit();
        return count;
    }

    private void RefuseOnServer([CallerMemberName] string operation = "")
    {
        if (_server is not null)
        {
            throw NotOnServer(operation);
        }
    }

    private NotSupportedException NotOnServer(string operation) =>
        new($"{operation} on schemaless collection '{Name}' belongs to the embedded engine; a server provider does not offer it.");
}

using BLite.Bson;

namespace BLite.Core.Collections;

// Each of these runs in a transaction of its own: writes commit before returning (so a thrown
// exception leaves nothing behind), reads use a snapshot that stays open while enumerating.
internal sealed partial class TransactionalBsonCollection
{
    public BsonValue Insert(BsonDocument document) => Write(pages => Insert(pages, document));

    /// <summary>Inserts all documents in one transaction: all or nothing.</summary>
    public int InsertMany(IEnumerable<BsonDocument> documents)
    {
        ArgumentNullException.ThrowIfNull(documents);
        return Write(pages =>
        {
            var count = 0;
            foreach (var document in documents)
            {
                Insert(pages, document);
                count++;
            }

            return count;
        });
    }

    public bool Update(BsonDocument document) => Write(pages => Update(pages, document));

    public bool Upsert(BsonDocument document) => Write(pages => Upsert(pages, document));

    public bool Delete(BsonValue id) => Write(pages => Delete(pages, id));

    public bool EnsureIndex(IndexDefinition definition, IProgress<long>? progress = null) => Write(pages => EnsureIndex(pages, definition, progress));

    public bool EnsureIndex(string indexName, string fieldPath, bool unique = false) =>
        EnsureIndex(new IndexDefinition(indexName, fieldPath, unique));

    public bool DropIndex(string indexName) => Write(pages => DropIndex(pages, indexName));

    /// <summary>Turns this collection's change feed on or off (<see cref="ChangeFeed.ChangeFeedMode"/>); true when it changed.</summary>
    internal bool SetChangeFeed(ChangeFeed.ChangeFeedMode mode) => Write(pages => Documents.SetChangeFeed(pages, mode));

    public BsonDocument? FindById(BsonValue id)
    {
        using var read = Database.BeginRead();
        return FindById(read, id);
    }

    public long Count()
    {
        using var read = Database.BeginRead();
        return Count(read);
    }

    public IReadOnlyList<IndexDefinition> GetIndexes()
    {
        using var read = Database.BeginRead();
        return GetIndexes(read);
    }

    public IEnumerable<BsonDocument> FindAll(bool descending = false)
    {
        using var read = Database.BeginRead();
        foreach (var document in FindAll(read, descending))
        {
            yield return document;
        }
    }

    public IEnumerable<BsonDocument> FindByIdRange(BsonValue? lower, BsonValue? upper,
        bool lowerInclusive = true, bool upperInclusive = true, bool descending = false)
    {
        using var read = Database.BeginRead();
        foreach (var document in FindByIdRange(read, lower, upper, lowerInclusive, upperInclusive, descending))
        {
            yield return document;
        }
    }

    public IEnumerable<BsonDocument> FindByIndex(string indexName, params BsonValue[] values)
    {
        using var read = Database.BeginRead();
        foreach (var document in FindByIndex(read, indexName, values))
        {
            yield return document;
        }
    }

    public IEnumerable<BsonDocument> FindByIndexRange(string indexName, BsonValue? lower, BsonValue? upper,
        bool lowerInclusive = true, bool upperInclusive = true, bool descending = false)
    {
        using var read = Database.BeginRead();
        foreach (var document in FindByIndexRange(read, indexName, lower, upper, lowerInclusive, upperInclusive, descending))
        {
            yield return document;
        }
    }

    private T Write<T>(Func<Storage.IPageWriter, T> operation)
    {
        using var write = Database.BeginWrite();
        var result = operation(write);
        write.Commit();
        return result;
    }
}

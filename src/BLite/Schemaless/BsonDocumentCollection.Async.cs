using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Linq;
using BLite.Query;

namespace BLite;

// Writes wait for the writer slot and the commit's flush without blocking a thread; reads run on
// the page cache. Transaction rules are those of the synchronous operations.
public sealed partial class BsonDocumentCollection
{
    public Task<BsonValue> InsertAsync(BsonDocument document, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_server is not null)
        {
            return InsertOnServerAsync(document, cancellationToken);
        }

        return _context.WriteAsync((Collection, document), static (pages, s) => s.Collection.Insert(pages, s.document), cancellationToken);
    }

    public Task<bool> UpdateAsync(BsonDocument document, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_server is { } server)
        {
            return server.UpdateAsync(KeyOf(document), document, cancellationToken);
        }

        return _context.WriteAsync((Collection, document), static (pages, s) => s.Collection.Update(pages, s.document), cancellationToken);
    }

    public Task<bool> UpsertAsync(BsonDocument document, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_server is { } server)
        {
            return document.ContainsKey(BsonFieldDictionary.IdFieldName)
                ? server.UpsertAsync(KeyOf(document), document, cancellationToken)
                : InsertNewOnServerAsync(document, cancellationToken);
        }

        return _context.WriteAsync((Collection, document), static (pages, s) => s.Collection.Upsert(pages, s.document), cancellationToken);
    }

    public Task<bool> DeleteAsync(BsonValue id, CancellationToken cancellationToken = default) => _server is { } server
        ? server.DeleteAsync(IndexKeys.EncodeId(id), cancellationToken)
        : _context.WriteAsync((Collection, id), static (pages, s) => s.Collection.Delete(pages, s.id), cancellationToken);

    public Task<BsonDocument?> FindByIdAsync(BsonValue id, CancellationToken cancellationToken = default) => _server is { } server
        ? server.FindByIdAsync(IndexKeys.EncodeId(id), cancellationToken)
        : _context.ReadAsync((Collection, id), static (pages, s) => s.Collection.FindById(pages, s.id), cancellationToken);

    /// <summary>
    /// Documents matching the JSON filter, streamed like <see cref="Find(string)"/>
    /// (<c>await foreach</c>; <c>.ToListAsync()</c> for a list).
    /// </summary>
    public IAsyncEnumerable<BsonDocument> FindAsync(string jsonFilter, CancellationToken cancellationToken = default)
    {
        var query = Parse(jsonFilter);
        return _server is { } server ? server.FindAsync(query, cancellationToken) : AsyncStreams.Bind(StreamAsync(query), cancellationToken);
    }

    public async Task<int> CountAsync(CancellationToken cancellationToken = default) =>
        checked((int)await LongCountAsync(cancellationToken).ConfigureAwait(false));

    public async Task<int> CountAsync(string jsonFilter, CancellationToken cancellationToken = default) =>
        checked((int)await LongCountAsync(jsonFilter, cancellationToken).ConfigureAwait(false));

    public Task<long> LongCountAsync(CancellationToken cancellationToken = default) => _server is { } server
        ? server.CountAsync(new DocumentQuery(), cancellationToken)
        : _context.ReadAsync(Collection, static (pages, collection) => collection.Count(pages), cancellationToken);

    public Task<long> LongCountAsync(string jsonFilter, CancellationToken cancellationToken = default)
    {
        var query = Parse(jsonFilter);
        return _server is { } server
            ? server.CountAsync(query, cancellationToken)
            : _context.ReadAsync((Collection, query), static (pages, s) => CollectionQuerySource.Count(s.Collection.Documents, pages, s.query, []), cancellationToken);
    }

    public Task<int> DeleteManyAsync(string jsonFilter, CancellationToken cancellationToken = default)
    {
        var query = Parse(jsonFilter);
        return _server is { } server
            ? server.DeleteManyAsync(query, cancellationToken)
            : _context.WriteAsync((Collection, query), static (pages, s) => DeleteMatching(pages, s.Collection, s.query), cancellationToken);
    }

    private async IAsyncEnumerable<BsonDocument> StreamAsync(DocumentQuery query, [EnumeratorCancellation] CancellationToken cancellationToken = default)
    {
        if (_context.CurrentTransaction is { } transaction)
        {
            var matches = await transaction.RunAsync((Collection: this, Query: query), static (pages, s) => s.Collection.Materialize(pages, s.Query), cancellationToken).ConfigureAwait(false);
            foreach (var document in matches)
            {
                yield return document;
            }

            yield break;
        }

        foreach (var document in Stream(query))
        {
            cancellationToken.ThrowIfCancellationRequested();
            yield return document;
        }
    }

    private async Task<BsonValue> InsertOnServerAsync(BsonDocument document, CancellationToken cancellationToken)
    {
        var (id, key) = AssignId(document);
        return await _server!.InsertAsync(key, document, cancellationToken).ConfigureAwait(false) ? id : throw DuplicateId(key);
    }

    private async Task<bool> InsertNewOnServerAsync(BsonDocument document, CancellationToken cancellationToken)
    {
        await InsertOnServerAsync(document, cancellationToken).ConfigureAwait(false);
        return true;
    }
}

using System.Linq.Expressions;
using BLite.Bson;
using BLite.Core.ChangeFeed;
using BLite.Linq;

namespace BLite;

public sealed partial class DocumentCollection<TId, T>
{
    /// <summary>
    /// The committed changes of this collection, in commit order, as they commit (like
    /// <c>tail -f</c>); the collection must be declared with <c>HasChangeFeed()</c>. Each event
    /// carries a token to resume from after a restart (<see cref="WatchOptions.ResumeAfter"/>).
    /// The stream ends only through <paramref name="cancellationToken"/> (an
    /// <see cref="OperationCanceledException"/>). A slow consumer never holds up writers: it
    /// reads what it has not seen yet from the journal.
    /// </summary>
    public IAsyncEnumerable<ChangeEvent<TId, T>> Watch(WatchOptions? options = null, CancellationToken cancellationToken = default) =>
        OpenWatch(null, [], options, cancellationToken);

    /// <summary>
    /// As <see cref="Watch(WatchOptions?, CancellationToken)"/>, delivering only the changes whose
    /// document matches <paramref name="predicate"/>, tested on the stored bytes like a query's
    /// Where (a delete is tested on its before-image; without one it is always delivered).
    /// </summary>
    public IAsyncEnumerable<ChangeEvent<TId, T>> Watch(Expression<Func<T, bool>> predicate, WatchOptions? options = null, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        var query = Query().Where(predicate);
        var (filter, parameters) = ((IBLiteQueryProvider)query.Provider).TranslateFilter(query.Expression);
        return OpenWatch(filter, parameters, options, cancellationToken);
    }

    private IAsyncEnumerable<ChangeEvent<TId, T>> OpenWatch(Core.Query.QueryFilter? filter, BsonValue[] parameters, WatchOptions? options, CancellationToken cancellationToken)
    {
        var fields = _context.Engine.Fields;
        return ChangeStream.Open(_context.Engine, Name, options, filter, parameters, change => ToChangeEvent(change, fields), cancellationToken);
    }

    private ChangeEvent<TId, T> ToChangeEvent(JournalEvent change, BsonFieldDictionary fields) => new(
        change.Operation,
        change.Collection,
        _ids.FromBsonValue(BsonDocument.FromBytes(change.Id, fields)[BsonFieldDictionary.IdFieldName]),
        change.After is null ? null : Deserialize(change.After),
        change.Before is null ? null : Deserialize(change.Before),
        change.Sequence,
        change.CommitTime,
        change.EndsTransaction,
        change.Token);
}

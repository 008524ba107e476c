using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core;
using BLite.Core.ChangeFeed;
using BLite.Core.Query;

namespace BLite;

/// <summary>Turns the engine's journal events into public <see cref="ChangeEvent{TId, T}"/>s for typed, schemaless and database-wide watches.</summary>
internal static class ChangeStream
{
    /// <summary>
    /// Resolves the start now (so <see cref="ChangeFeedStart.Now"/> is the moment of the call and a
    /// bad token throws here, not at the first MoveNextAsync), then streams.
    /// </summary>
    public static IAsyncEnumerable<ChangeEvent<TId, T>> Open<TId, T>(DocumentDatabase database, string? collection, WatchOptions? options,
        QueryFilter? predicate, IReadOnlyList<BsonValue>? parameters, Func<JournalEvent, ChangeEvent<TId, T>> convert, CancellationToken cancellationToken)
    {
        options ??= new WatchOptions();
        if (collection is not null)
        {
            ThrowIfNoFeed(database, collection);
        }

        var start = database.ResolveStart(options.Start);
        var filter = new JournalFilter(collection, options.Operations, predicate, parameters);
        return Stream(database, start, filter, convert, cancellationToken);
    }

    public static ChangeEvent<BsonValue, BsonDocument> ToBson(JournalEvent change, BsonFieldDictionary fields) => new(
        change.Operation,
        change.Collection,
        BsonDocument.FromBytes(change.Id, fields)[BsonFieldDictionary.IdFieldName],
        change.After is null ? null : BsonDocument.FromBytes(change.After, fields),
        change.Before is null ? null : BsonDocument.FromBytes(change.Before, fields),
        change.Sequence,
        change.CommitTime,
        change.EndsTransaction,
        change.Token);

    private static void ThrowIfNoFeed(DocumentDatabase database, string collection)
    {
        using var read = database.BeginRead();
        if (database.GetRawCollection(collection).GetChangeFeed(read) == ChangeFeedMode.Off)
        {
            throw new BLiteException($"Collection '{collection}' has no change feed, so there is nothing to watch: declare it with modelBuilder.Entity<T>().HasChangeFeed() (or EnableChangeFeed() on a schemaless collection).");
        }
    }

    private static async IAsyncEnumerable<ChangeEvent<TId, T>> Stream<TId, T>(DocumentDatabase database, ChangeFeedToken start, JournalFilter filter,
        Func<JournalEvent, ChangeEvent<TId, T>> convert, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await foreach (var change in database.ReadChanges(start, filter, cancellationToken).ConfigureAwait(false))
        {
            yield return convert(change);
        }
    }
}

using System.Linq.Expressions;
using BLite.Core.Diagnostics;
using BLite.Linq;

namespace BLite;

// Writes wait for the writer slot and for the commit's flush asynchronously; reads run on the page
// cache and complete synchronously. Each takes the caller's transaction the same way as the
// synchronous operations.
public sealed partial class DocumentCollection<TId, T>
{
    /// <summary>Awaits a timed operation and records its duration (only called when a listener was on).</summary>
    internal async Task<TResult> MeasuredAsync<TResult>(Task<TResult> operation, long startedTimestamp, string name)
    {
        var result = await operation.ConfigureAwait(false);
        Measured(startedTimestamp, name);
        return result;
    }

    public Task<TId> InsertAsync(T document, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_store is { } store)
        {
            return store.InsertAsync(document, cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.WriteAsync((Collection: this, Document: document), static (pages, s) => s.Collection.InsertCore(pages, s.Document), cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "insert");
    }

    public Task<int> InsertManyAsync(IEnumerable<T> documents, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(documents);
        if (_store is { } store)
        {
            return store.InsertManyAsync(documents, cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.WriteAsync((Collection: this, Documents: documents), static (pages, s) => s.Collection.InsertManyCore(pages, s.Documents), cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "insert");
    }

    public Task<bool> UpdateAsync(T document, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_store is { } store)
        {
            return store.UpdateAsync(document, cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.WriteAsync((Collection: this, Document: document), static (pages, s) => s.Collection.UpdateCore(pages, s.Document), cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "update");
    }

    public Task<bool> UpsertAsync(T document, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(document);
        if (_store is { } store)
        {
            return store.UpsertAsync(document, cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.WriteAsync((Collection: this, Document: document), static (pages, s) => s.Collection.UpsertCore(pages, s.Document), cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "upsert");
    }

    public Task<bool> DeleteAsync(TId id, CancellationToken cancellationToken = default)
    {
        if (_store is { } store)
        {
            return store.DeleteAsync(id, cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.WriteAsync((Collection: this, Key: LookupKey(id)), static (pages, s) => s.Collection.Documents.Delete(pages, s.Key.Span), cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "delete");
    }

    public Task<T?> FindByIdAsync(TId id, CancellationToken cancellationToken = default)
    {
        if (_store is { } store)
        {
            return store.FindByIdAsync(id, cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.ReadAsync((Collection: this, Id: id), _findById, cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "find_by_id");
    }

    /// <summary>
    /// The documents matching <paramref name="predicate"/>, streamed like <see cref="Find"/>
    /// (<c>await foreach</c>; <c>.ToListAsync()</c> for a list). Inside a transaction the matches
    /// are read under it before the first is returned.
    /// </summary>
    public IAsyncEnumerable<T> FindAsync(Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return AsyncStreams.Bind(Query().Where(predicate).AsAsyncEnumerable(), cancellationToken);
    }

    public Task<T?> FindOneAsync(Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().FirstOrDefaultAsync(predicate, cancellationToken);
    }

    /// <summary>Every document in _id order, streamed like <see cref="FindAll"/>.</summary>
    public IAsyncEnumerable<T> FindAllAsync(CancellationToken cancellationToken = default) =>
        AsyncStreams.Bind(Query().AsAsyncEnumerable(), cancellationToken);

    public async Task<int> CountAsync(CancellationToken cancellationToken = default) =>
        checked((int)await LongCountAsync(cancellationToken).ConfigureAwait(false));

    public Task<int> CountAsync(Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Where(predicate).CountAsync(cancellationToken);
    }

    public Task<long> LongCountAsync(CancellationToken cancellationToken = default)
    {
        if (_store is { } store)
        {
            return store.CountAsync(cancellationToken);
        }

        var started = BLiteTelemetry.StartOperation();
        var task = _context.ReadAsync(this, static (pages, collection) => collection.Documents.Count(pages), cancellationToken);
        return started == 0 ? task : MeasuredAsync(task, started, "count");
    }

    public Task<long> LongCountAsync(Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Where(predicate).LongCountAsync(cancellationToken);
    }

    public Task<bool> ExistsAsync(Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().AnyAsync(predicate, cancellationToken);
    }

    public Task<bool> ExistsAsync(TId id, CancellationToken cancellationToken = default)
    {
        if (_store is { } store)
        {
            return store.ExistsAsync(id, cancellationToken);
        }

        return _context.ReadAsync((Collection: this, Key: LookupKey(id)), static (pages, s) => s.Collection.Documents.ContainsId(pages, s.Key.Span), cancellationToken);
    }

    /// <inheritdoc cref="DeleteMany"/>
    public async Task<int> DeleteManyAsync(Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        var own = _context.CurrentTransaction is null ? await _context.BeginTransactionAsync(cancellationToken).ConfigureAwait(false) : null;
        try
        {
            var ids = new List<TId>();
            await foreach (var document in Query().Where(predicate).AsAsyncEnumerable().WithCancellation(cancellationToken).ConfigureAwait(false))
            {
                ids.Add(Mapper.GetId(document));
            }

            var deleted = 0;
            foreach (var id in ids)
            {
                deleted += await DeleteAsync(id, cancellationToken).ConfigureAwait(false) ? 1 : 0;
            }

            if (own is not null)
            {
                await own.CommitAsync(cancellationToken).ConfigureAwait(false);
            }

            return deleted;
        }
        finally
        {
            own?.Dispose();
        }
    }
}

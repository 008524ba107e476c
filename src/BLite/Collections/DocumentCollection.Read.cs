using System.Linq.Expressions;
using BLite.Core.Diagnostics;

namespace BLite;

public sealed partial class DocumentCollection<TId, T>
{
    /// <summary>The document with this id, or null: one descent of the primary index and one deserialization.</summary>
    public T? FindById(TId id)
    {
        if (_store is { } store)
        {
            return store.FindById(id);
        }

        var started = BLiteTelemetry.StartOperation();
        var document = _context.Read((Collection: this, Id: id), _findById);
        Measured(started, "find_by_id");
        return document;
    }

    /// <summary>
    /// Prepares a projection to run by id: <c>var card = orders.Project(o => new { o.Status, o.Total }); card.FindById(id)</c>
    /// reads only those stored fields. The selector may read stored scalar members (nested paths
    /// included) and compute from them; one that needs the whole document throws
    /// <see cref="NotSupportedException"/>.
    /// </summary>
    public DocumentProjection<TId, T, TResult> Project<TResult>(Expression<Func<T, TResult>> selector)
    {
        ArgumentNullException.ThrowIfNull(selector);
        return new DocumentProjection<TId, T, TResult>(this, selector);
    }

    /// <summary>
    /// Documents matching <paramref name="predicate"/>, planned like <see cref="Query"/>. Outside a
    /// transaction the results stream from one snapshot; inside one they are read up front, so the
    /// loop body may write to the collection.
    /// </summary>
    public IEnumerable<T> Find(Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Where(predicate);
    }

    /// <summary>The first document matching <paramref name="predicate"/>, or null.</summary>
    public T? FindOne(Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Where(predicate).FirstOrDefault();
    }

    /// <summary>Every document in id order.</summary>
    public IEnumerable<T> FindAll() => Query();

    /// <summary>
    /// The number of documents, from the collection's counter (no scan). As LINQ's <c>Count</c>,
    /// it throws <see cref="OverflowException"/> above <see cref="int.MaxValue"/>; use <see cref="LongCount()"/> there.
    /// </summary>
    public int Count() => checked((int)LongCount());

    /// <summary>The number of documents matching <paramref name="predicate"/>, without deserializing them.</summary>
    public int Count(Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Where(predicate).Count();
    }

    /// <summary>The number of documents as a <see cref="long"/>, from the collection's counter (no scan).</summary>
    public long LongCount()
    {
        if (_store is { } store)
        {
            return store.Count();
        }

        var started = BLiteTelemetry.StartOperation();
        var count = _context.Read(this, static (pages, collection) => collection.Documents.Count(pages));
        Measured(started, "count");
        return count;
    }

    /// <summary>The number of documents matching <paramref name="predicate"/>, as a <see cref="long"/>.</summary>
    public long LongCount(Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Where(predicate).LongCount();
    }

    /// <summary>Whether any document matches <paramref name="predicate"/>.</summary>
    public bool Exists(Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        return Query().Any(predicate);
    }

    /// <summary>Whether a document with this id exists.</summary>
    public bool Exists(TId id)
    {
        if (_store is { } store)
        {
            return store.Exists(id);
        }

        return _context.Read((Collection: this, Id: id), static (pages, s) => s.Collection.Documents.ContainsId(pages, s.Collection.LookupKey(s.Id).Span));
    }

    /// <summary>
    /// Removes every document matching <paramref name="predicate"/> atomically (in the open
    /// transaction, or in one of its own) and returns how many.
    /// </summary>
    public int DeleteMany(Expression<Func<T, bool>> predicate)
    {
        ArgumentNullException.ThrowIfNull(predicate);
        var own = _context.CurrentTransaction is null ? _context.BeginTransaction() : null;
        try
        {
            var ids = new List<TId>();
            foreach (var document in Query().Where(predicate))
            {
                ids.Add(Mapper.GetId(document));
            }

            var deleted = 0;
            foreach (var id in ids)
            {
                deleted += Delete(id) ? 1 : 0;
            }

            own?.Commit();
            return deleted;
        }
        finally
        {
            own?.Dispose();
        }
    }
}

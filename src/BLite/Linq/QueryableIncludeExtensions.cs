using System.Linq.Expressions;

namespace BLite.Linq;

/// <summary>
/// Include: resolve <see cref="DocumentRef{TId, T}"/> members of the documents a query returns.
/// The references of a batch of documents are gathered, their distinct ids sorted by primary key
/// and read in one pass over the referenced collection: never one query per document.
/// </summary>
public static class QueryableIncludeExtensions
{
    /// <summary>
    /// Loads the document <paramref name="reference"/> points to into its
    /// <see cref="DocumentRef{TId, T}.Value"/>. Apply it before <c>Select</c>; the selector may
    /// then read <c>o.Customer.Value</c>. A dangling reference reads as null, or throws
    /// <see cref="BLiteDanglingReferenceException"/> with <see cref="MissingReference.Throw"/>.
    /// </summary>
    public static IQueryable<T> Include<T, TId, TTarget>(this IQueryable<T> source, Expression<Func<T, DocumentRef<TId, TTarget>?>> reference,
        MissingReference whenMissing = MissingReference.Null)
        where TId : notnull
        where TTarget : class
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(reference);
        return source.Provider.CreateQuery<T>(Expression.Call(null, new Func<IQueryable<T>, Expression<Func<T, DocumentRef<TId, TTarget>?>>, MissingReference, IQueryable<T>>(Include).Method,
            source.Expression, Expression.Quote(reference), Expression.Constant(whenMissing)));
    }

    /// <summary>Loads every reference of a collection member (<c>u =&gt; u.Follows</c>), as the single-reference overload does.</summary>
    public static IQueryable<T> Include<T, TId, TTarget>(this IQueryable<T> source, Expression<Func<T, IEnumerable<DocumentRef<TId, TTarget>>?>> references,
        MissingReference whenMissing = MissingReference.Null)
        where TId : notnull
        where TTarget : class
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(references);
        return source.Provider.CreateQuery<T>(Expression.Call(null, new Func<IQueryable<T>, Expression<Func<T, IEnumerable<DocumentRef<TId, TTarget>>?>>, MissingReference, IQueryable<T>>(Include).Method,
            source.Expression, Expression.Quote(references), Expression.Constant(whenMissing)));
    }
}

using System.Collections;
using System.Linq.Expressions;

namespace BLite.Linq;

/// <summary>Starts LINQ queries over a document source.</summary>
public static class BLiteQuery
{
    /// <summary>
    /// A LINQ query over <paramref name="source"/>. Where / OrderBy / Skip / Take run in the
    /// engine (with index selection); Select, GroupBy and aggregates run on the documents it
    /// returns. Typed as <see cref="IQueryable{T}"/> on purpose: the query object is also an
    /// <see cref="IAsyncEnumerable{T}"/>, and exposing both statically would make every LINQ
    /// operator ambiguous with System.Linq.AsyncEnumerable.
    /// </summary>
    public static IQueryable<T> Create<T>(IDocumentQuerySource<T> source) => new BLiteQueryable<T>(source);
}

/// <summary>The query object behind <see cref="BLiteQuery.Create{T}"/>.</summary>
internal sealed class BLiteQueryable<T> : IOrderedQueryable<T>, IAsyncEnumerable<T>
{
    private readonly IBLiteQueryProvider _provider;

    public BLiteQueryable(IDocumentQuerySource<T> source)
    {
        ArgumentNullException.ThrowIfNull(source);
        _provider = new BLiteQueryProvider<T>(source);
        Expression = Expression.Constant(this);
    }

    internal BLiteQueryable(IBLiteQueryProvider provider, Expression expression)
    {
        _provider = provider;
        Expression = expression;
    }

    public Type ElementType => typeof(T);

    public Expression Expression { get; }

    public IQueryProvider Provider => _provider;

    public IEnumerator<T> GetEnumerator() => _provider.ExecuteSequence<T>(Expression).GetEnumerator();

    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    public IAsyncEnumerator<T> GetAsyncEnumerator(CancellationToken cancellationToken = default) =>
        _provider.ExecuteSequenceAsync<T>(Expression, cancellationToken).GetAsyncEnumerator(cancellationToken);

    /// <summary>The query root renders as its type, so rendering an expression that contains it cannot recurse.</summary>
    public override string ToString() =>
        Expression is ConstantExpression { Value: var root } && ReferenceEquals(root, this) ? $"BLiteQuery<{typeof(T).Name}>" : Expression.ToString();
}

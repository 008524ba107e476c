using System.Collections;
using System.Linq.Expressions;

namespace BLite.Linq;

/// <summary>
/// A LINQ query over a BLite collection. Where / OrderBy / Skip / Take run in the engine (with
/// index selection); Select, GroupBy and aggregates run on the documents it returns. Create one
/// from a source with <c>new BLiteQueryable&lt;T&gt;(source)</c>; collections do this in
/// <c>AsQueryable()</c>.
/// </summary>
public sealed class BLiteQueryable<T> : IOrderedQueryable<T>, IAsyncEnumerable<T>
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

    /// <summary>The plan the engine will use for this query (see docs/query.md, "Explain").</summary>
    public string Explain() => _provider.Explain(Expression);

    public override string ToString() => Expression.ToString();
}

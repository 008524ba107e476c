using System.Linq.Expressions;

namespace BLite.Linq;

/// <summary>What the async terminals and <see cref="BLiteQueryable{T}"/> need from a provider, whatever its root type.</summary>
internal interface IBLiteQueryProvider : IQueryProvider
{
    IEnumerable<TElement> ExecuteSequence<TElement>(Expression expression);

    IAsyncEnumerable<TElement> ExecuteSequenceAsync<TElement>(Expression expression, CancellationToken cancellationToken);

    Task<TResult> ExecuteAsync<TResult>(Expression expression, CancellationToken cancellationToken);

    string Explain(Expression expression);
}

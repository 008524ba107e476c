using System.Linq.Expressions;

namespace BLite.Linq;

/// <summary>What the async terminals and <see cref="BLiteQueryable{T}"/> need from a provider, whatever its root type.</summary>
internal interface IBLiteQueryProvider : IQueryProvider
{
    IEnumerable<TElement> ExecuteSequence<TElement>(Expression expression);

    IAsyncEnumerable<TElement> ExecuteSequenceAsync<TElement>(Expression expression, CancellationToken cancellationToken);

    Task<TResult> ExecuteAsync<TResult>(Expression expression, CancellationToken cancellationToken);

    string Explain(Expression expression);

    /// <summary>Translates a parameterized shape over this provider's source (a compiled query's, see <see cref="CompiledQuery"/>).</summary>
    Translation.TranslatedQuery Translate(Expression shape, int parameterCount);

    /// <summary>Runs a translation made by <see cref="Translate"/> with one call's slot values: a sequence.</summary>
    IEnumerable<TElement> ExecuteSequence<TElement>(Translation.TranslatedQuery translated, object?[] values);

    /// <summary>Runs a translation made by <see cref="Translate"/> with one call's slot values: a single result.</summary>
    object? Execute(Translation.TranslatedQuery translated, object?[] values);

    /// <summary>The engine filter of a query that is only Where clauses, with its parameter values bound.</summary>
    (Core.Query.QueryFilter? Filter, BsonValue[] Parameters) TranslateFilter(Expression expression);
}

using System.Linq.Expressions;

using BLite.Linq;

namespace BLite;

/// <summary>
/// Async terminals for BLite queries. Each builds the same expression the synchronous operator
/// would (so it is translated and cached identically) and runs it without blocking a thread on
/// I/O. They throw <see cref="InvalidOperationException"/> on queries that are not BLite's.
/// </summary>
public static class QueryableAsyncExtensions
{
    public static IAsyncEnumerable<T> AsAsyncEnumerable<T>(this IQueryable<T> source)
    {
        ArgumentNullException.ThrowIfNull(source);
        return source as IAsyncEnumerable<T> ?? throw NotBLite(source);
    }

    public static async Task<List<T>> ToListAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        var list = new List<T>();
        await foreach (var item in source.AsAsyncEnumerable().WithCancellation(cancellationToken).ConfigureAwait(false))
        {
            list.Add(item);
        }

        return list;
    }

    public static async Task<T[]> ToArrayAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        (await source.ToListAsync(cancellationToken).ConfigureAwait(false)).ToArray();

    public static Task<T> FirstAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, T>(source, Queryable.First, cancellationToken);

    public static Task<T> FirstAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, T>(source, Queryable.First, predicate, cancellationToken);

    public static Task<T?> FirstOrDefaultAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, T?>(source, Queryable.FirstOrDefault, cancellationToken);

    public static Task<T?> FirstOrDefaultAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, T?>(source, Queryable.FirstOrDefault, predicate, cancellationToken);

    public static Task<T> SingleAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, T>(source, Queryable.Single, cancellationToken);

    public static Task<T> SingleAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, T>(source, Queryable.Single, predicate, cancellationToken);

    public static Task<T?> SingleOrDefaultAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, T?>(source, Queryable.SingleOrDefault, cancellationToken);

    public static Task<T?> SingleOrDefaultAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, T?>(source, Queryable.SingleOrDefault, predicate, cancellationToken);

    public static Task<bool> AnyAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, bool>(source, Queryable.Any, cancellationToken);

    public static Task<bool> AnyAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, bool>(source, Queryable.Any, predicate, cancellationToken);

    public static Task<bool> AllAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, bool>(source, Queryable.All, predicate, cancellationToken);

    public static Task<int> CountAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, int>(source, Queryable.Count, cancellationToken);

    public static Task<int> CountAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        Execute<T, int>(source, Queryable.Count, predicate, cancellationToken);

    public static Task<long> LongCountAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default) =>
        Execute<T, long>(source, Queryable.LongCount, cancellationToken);

    public static Task<TResult?> MinAsync<T, TResult>(this IQueryable<T> source, Expression<Func<T, TResult>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, TResult, TResult?>(source, Queryable.Min, selector, cancellationToken);

    public static Task<TResult?> MaxAsync<T, TResult>(this IQueryable<T> source, Expression<Func<T, TResult>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, TResult, TResult?>(source, Queryable.Max, selector, cancellationToken);

    public static Task<decimal> SumAsync<T>(this IQueryable<T> source, Expression<Func<T, decimal>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, decimal, decimal>(source, Queryable.Sum, selector, cancellationToken);

    public static Task<double> SumAsync<T>(this IQueryable<T> source, Expression<Func<T, double>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, double, double>(source, Queryable.Sum, selector, cancellationToken);

    public static Task<int> SumAsync<T>(this IQueryable<T> source, Expression<Func<T, int>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, int, int>(source, Queryable.Sum, selector, cancellationToken);

    public static Task<long> SumAsync<T>(this IQueryable<T> source, Expression<Func<T, long>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, long, long>(source, Queryable.Sum, selector, cancellationToken);

    public static Task<decimal> AverageAsync<T>(this IQueryable<T> source, Expression<Func<T, decimal>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, decimal, decimal>(source, Queryable.Average, selector, cancellationToken);

    public static Task<double> AverageAsync<T>(this IQueryable<T> source, Expression<Func<T, double>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, double, double>(source, Queryable.Average, selector, cancellationToken);

    public static Task<double> AverageAsync<T>(this IQueryable<T> source, Expression<Func<T, int>> selector, CancellationToken cancellationToken = default) =>
        Execute<T, int, double>(source, Queryable.Average, selector, cancellationToken);

    /// <summary>The engine's plan for this query (index, bounds, residual filter, sort), as text.</summary>
    public static string Explain<T>(this IQueryable<T> source)
    {
        ArgumentNullException.ThrowIfNull(source);
        return Provider(source).Explain(source.Expression);
    }

    private static Task<TResult> Execute<T, TResult>(IQueryable<T> source, Func<IQueryable<T>, TResult> terminal, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        var call = Expression.Call(null, terminal.Method, source.Expression);
        return Provider(source).ExecuteAsync<TResult>(call, cancellationToken);
    }

    private static Task<TResult> Execute<T, TResult>(IQueryable<T> source, Func<IQueryable<T>, Expression<Func<T, bool>>, TResult> terminal,
        Expression<Func<T, bool>> predicate, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(predicate);
        var call = Expression.Call(null, terminal.Method, source.Expression, Expression.Quote(predicate));
        return Provider(source).ExecuteAsync<TResult>(call, cancellationToken);
    }

    private static Task<TResult> Execute<T, TValue, TResult>(IQueryable<T> source, Func<IQueryable<T>, Expression<Func<T, TValue>>, TResult> terminal,
        Expression<Func<T, TValue>> selector, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(source);
        ArgumentNullException.ThrowIfNull(selector);
        var call = Expression.Call(null, terminal.Method, source.Expression, Expression.Quote(selector));
        return Provider(source).ExecuteAsync<TResult>(call, cancellationToken);
    }

    private static IBLiteQueryProvider Provider<T>(IQueryable<T> source) => source.Provider as IBLiteQueryProvider ?? throw NotBLite(source);

    private static InvalidOperationException NotBLite<T>(IQueryable<T> source) =>
        new($"The query is not a BLite query (its provider is {source.Provider.GetType().Name}); async operators need a query started from a BLite collection.");
}

using System.Collections.Concurrent;
using System.Linq.Expressions;
using System.Runtime.CompilerServices;
using BLite.Linq.Execution;
using BLite.Linq.Translation;

namespace BLite.Linq;

/// <summary>
/// Runs LINQ queries over one <see cref="IDocumentQuerySource{T}"/>. Each execution lifts its
/// values out of the expression (<see cref="ExpressionParameterizer"/>), looks the remaining
/// shape up in a translation cache, binds the values and runs the cached translation, so a query
/// repeated with different captured values is translated (and can be planned) once. A query of
/// one of the last few shapes run skips the lifting: it is matched against that shape directly
/// (<see cref="ExpressionShapeComparer.TryMatchUnparameterized"/>).
/// </summary>
internal sealed class BLiteQueryProvider<TRoot> : IBLiteQueryProvider
{
    /// <summary>Shapes are finite in practice; the bound only guards against generated-at-run-time expressions.</summary>
    internal const int DefaultMaxCachedShapes = 2048;

    /// <summary>How many recently executed shapes are tried against a query before it is parameterized.</summary>
    private const int RecentShapes = 4;

    private readonly IDocumentQuerySource<TRoot> _source;
    private readonly ConcurrentDictionary<Expression, TranslatedQuery> _cache = new(ExpressionShapeComparer.Instance);
    private readonly RecentShape?[] _recent = new RecentShape?[RecentShapes];
    private int _nextRecent;
    private long _cacheHits;
    private long _cacheMisses;
    private long _recentHits;

    private readonly int _maxCachedShapes;

    public BLiteQueryProvider(IDocumentQuerySource<TRoot> source, int maxCachedShapes = DefaultMaxCachedShapes)
    {
        _source = source;
        _maxCachedShapes = maxCachedShapes;
    }

    public long CacheHits => Interlocked.Read(ref _cacheHits);

    public long CacheMisses => Interlocked.Read(ref _cacheMisses);

    /// <summary>Cache hits served by matching a recent shape, without parameterizing the expression.</summary>
    public long RecentHits => Interlocked.Read(ref _recentHits);

    public int CachedShapes => _cache.Count;

    public IQueryable CreateQuery(Expression expression) =>
        throw new NotSupportedException("Build BLite queries with the generic Queryable operators (CreateQuery<TElement>).");

    public IQueryable<TElement> CreateQuery<TElement>(Expression expression)
    {
        ArgumentNullException.ThrowIfNull(expression);
        return new BLiteQueryable<TElement>(this, expression);
    }

    public object? Execute(Expression expression)
    {
        var (translated, values) = Prepare(expression);
        return Execute(translated, values);
    }

    public object? Execute(TranslatedQuery translated, object?[] values)
    {
        var parameters = translated.Bind(values, _source.FieldPaths as IQueryValueConverter);
        return QueryExecutor.Run(_source, translated, values, parameters, sourceRows: null);
    }

    public TResult Execute<TResult>(Expression expression) => Cast<TResult>(Execute(expression));

    public IEnumerable<TElement> ExecuteSequence<TElement>(Expression expression)
    {
        var (translated, values) = Prepare(expression);
        return ExecuteSequence<TElement>(translated, values);
    }

    public IEnumerable<TElement> ExecuteSequence<TElement>(TranslatedQuery translated, object?[] values)
    {
        var parameters = translated.Bind(values, _source.FieldPaths as IQueryValueConverter);
        return QueryExecutor.DocumentsOnly(_source, translated, parameters) as IEnumerable<TElement>
            ?? QueryExecutor.StoredValues<TRoot, TElement>(_source, translated, parameters)
            ?? Rows<TElement>(translated, values, parameters);
    }

    private IEnumerable<TElement> Rows<TElement>(TranslatedQuery translated, object?[] values, BsonValue[] parameters)
    {
        foreach (var row in QueryExecutor.Rows(_source, translated, values, parameters, sourceRows: null))
        {
            yield return (TElement)row!;
        }
    }

    public TranslatedQuery Translate(Expression shape, int parameterCount) => QueryTranslator.Translate(shape, parameterCount, _source.FieldPaths);

    public async IAsyncEnumerable<TElement> ExecuteSequenceAsync<TElement>(Expression expression, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var (translated, values) = Prepare(expression);
        var parameters = translated.Bind(values, _source.FieldPaths as IQueryValueConverter);
        if (QueryExecutor.HasInclude(translated))
        {
            // The query's documents and the ones they reference come from one snapshot held while
            // enumerating; its reads never wait for the writer, so they run synchronously here.
            foreach (var row in QueryExecutor.Rows(_source, translated, values, parameters, sourceRows: null))
            {
                cancellationToken.ThrowIfCancellationRequested();
                yield return (TElement)row!;
            }

            yield break;
        }

        if (translated.Vector is not null || QueryExecutor.NeedsAllRows(translated))
        {
            var all = translated.Vector is null
                ? await SourceGrouping.TryRowsAsync(_source, translated, values, parameters, cancellationToken).ConfigureAwait(false)
                  ?? (IEnumerable<object?>)await Fetch(translated, parameters, cancellationToken).ConfigureAwait(false)
                : null;
            foreach (var row in QueryExecutor.Rows(_source, translated, values, parameters, all))
            {
                yield return (TElement)row!;
            }

            yield break;
        }

        await foreach (var fetched in FetchEach(translated, parameters, cancellationToken).ConfigureAwait(false))
        {
            foreach (var row in QueryExecutor.Rows(_source, translated, values, parameters, [fetched]))
            {
                yield return (TElement)row!;
            }
        }
    }

    public async Task<TResult> ExecuteAsync<TResult>(Expression expression, CancellationToken cancellationToken)
    {
        var (translated, values) = Prepare(expression);
        var parameters = translated.Bind(values, _source.FieldPaths as IQueryValueConverter);
        if (QueryExecutor.IsCountOnly(translated))
        {
            var count = await _source.CountAsync(translated.Query, parameters, cancellationToken).ConfigureAwait(false);
            return Cast<TResult>(QueryExecutor.FromCount(translated, count));
        }

        if (SourceAggregate.For(_source, translated) is { } aggregate
            && await ((IAggregatingQuerySource)_source).AggregateAsync(translated.Query, parameters, aggregate.Value, aggregate.Kind, cancellationToken).ConfigureAwait(false) is { } totals
            && aggregate.TryResult(totals, out var total))
        {
            return Cast<TResult>(total);
        }

        if (await SourceGrouping.TryExtremeAsync(_source, translated, parameters, cancellationToken).ConfigureAwait(false) is (true, var extreme))
        {
            return Cast<TResult>(extreme);
        }

        var rows = translated.Vector is null && !QueryExecutor.HasInclude(translated)
            ? await SourceGrouping.TryRowsAsync(_source, translated, values, parameters, cancellationToken).ConfigureAwait(false)
              ?? (IEnumerable<object?>)await Fetch(translated, parameters, cancellationToken).ConfigureAwait(false)
            : null;
        return Cast<TResult>(QueryExecutor.Run(_source, translated, values, parameters, rows));
    }

    /// <summary>The plan, and the stored fields a pushed-down projection reads instead of materializing documents.</summary>
    public string Explain(Expression expression)
    {
        var (translated, values) = Prepare(expression);
        if (translated.Vector is { } vector && _source is IVectorQuerySource<TRoot> vectors)
        {
            return vectors.ExplainNearest(vector.Resolve(values), translated.Query.Filter);
        }

        var plan = _source is IParameterizedExplainSource parameterized
            ? parameterized.Explain(translated.Query, translated.Bind(values, _source.FieldPaths as IQueryValueConverter))
            : _source.Explain(translated.Query);
        if (QueryExecutor.DistinctIndex(_source, translated) is { } index)
        {
            return $"{plan}{Environment.NewLine}  distinct: keys of index {index} (no document read)";
        }

        return QueryExecutor.UsesProjection(_source, translated)
            ? $"{plan}{Environment.NewLine}  fields read: {Core.Query.FieldProjection.Describe(translated.Projection!.Values)} (no document materialized)"
            : plan;
    }

    public (Core.Query.QueryFilter? Filter, BsonValue[] Parameters) TranslateFilter(Expression expression)
    {
        var (translated, values) = Prepare(expression);
        return (translated.Query.Filter, translated.Bind(values, _source.FieldPaths as IQueryValueConverter));
    }

    private async Task<List<object?>> Fetch(TranslatedQuery translated, BsonValue[] parameters, CancellationToken cancellationToken)
    {
        var rows = new List<object?>();
        await foreach (var row in FetchEach(translated, parameters, cancellationToken).ConfigureAwait(false))
        {
            rows.Add(row);
        }

        return rows;
    }

    /// <summary>Documents, or rows of stored fields when the query's projection is pushed down.</summary>
    private async IAsyncEnumerable<object?> FetchEach(TranslatedQuery translated, BsonValue[] parameters, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        if (QueryExecutor.UsesProjection(_source, translated))
        {
            var projection = translated.Projection!;
            await foreach (var values in ((IProjectingQuerySource)_source).ExecuteFieldsAsync(translated.Query, parameters, projection.Values, cancellationToken)
                .ConfigureAwait(false))
            {
                foreach (var row in QueryExecutor.ProjectedRows([values], projection))
                {
                    yield return row;
                }
            }

            yield break;
        }

        await foreach (var document in _source.ExecuteAsync(translated.Query, parameters, cancellationToken).ConfigureAwait(false))
        {
            yield return document;
        }
    }

    private (TranslatedQuery Translated, object?[] Values) Prepare(Expression expression)
    {
        ArgumentNullException.ThrowIfNull(expression);
        if (TryRecent(expression) is { } recent)
        {
            Interlocked.Increment(ref _cacheHits);
            Interlocked.Increment(ref _recentHits);
            return recent;
        }

        var (shape, values) = ExpressionParameterizer.Parameterize(expression);
        if (!ExpressionShapeComparer.IsCacheable(shape))
        {
            return (QueryTranslator.Translate(shape, values.Length, _source.FieldPaths), values);
        }

        if (_cache.TryGetValue(shape, out var cached))
        {
            Interlocked.Increment(ref _cacheHits);
            Remember(shape, cached, values.Length);
            return (cached, values);
        }

        Interlocked.Increment(ref _cacheMisses);
        var fresh = QueryTranslator.Translate(shape, values.Length, _source.FieldPaths);
        if (_cache.Count >= _maxCachedShapes)
        {
            _cache.Clear();
        }

        var translated = _cache.GetOrAdd(shape, fresh);
        Remember(shape, translated, values.Length);
        return (translated, values);
    }

    /// <summary>
    /// The fast path of a repeated query: the expression is matched against the few shapes run
    /// last, reading its values where the shape has parameter slots, so it is neither rebuilt
    /// into a shape nor hashed. Most calls repeat one of a handful of shapes.
    /// </summary>
    private (TranslatedQuery, object?[])? TryRecent(Expression expression)
    {
        foreach (var recent in _recent)
        {
            if (recent is null)
            {
                continue;
            }

            if (ExpressionShapeComparer.TryMatchUnparameterized(recent.Shape, expression, recent.ParameterCount, out var values))
            {
                return (recent.Translated, values);
            }
        }

        return null;
    }

    private void Remember(Expression shape, TranslatedQuery translated, int parameterCount)
    {
        var slot = (int)((uint)Interlocked.Increment(ref _nextRecent) % RecentShapes);
        _recent[slot] = new RecentShape(shape, translated, parameterCount);
    }

    private sealed record RecentShape(Expression Shape, TranslatedQuery Translated, int ParameterCount);

    private static TResult Cast<TResult>(object? result) => result is null ? default! : (TResult)result;
}

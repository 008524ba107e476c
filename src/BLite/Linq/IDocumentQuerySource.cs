using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq;

/// <summary>
/// What a LINQ query needs from a collection: run an engine-level <see cref="DocumentQuery"/>
/// (filter, order, skip, take — the LINQ layer translated and cached it) and hand back the
/// matching documents materialized as <typeparamref name="T"/>, in order. The collections
/// layer implements it (planning with <see cref="QueryPlanner"/>, evaluating on raw C-BSON with
/// <see cref="FilterEvaluator"/>); projections, grouping and aggregates run in the LINQ layer
/// over what it returns.
/// </summary>
/// <remarks>
/// <paramref name="parameters"/> hold the values of the query's parameter slots for this
/// execution. One <see cref="DocumentQuery"/> instance is reused for every execution of the same
/// query shape, so a source may cache its plan per instance.
/// </remarks>
public interface IDocumentQuerySource<T>
{
    /// <summary>Maps members of <typeparamref name="T"/> (and nested types) to stored field names.</summary>
    IFieldPathResolver FieldPaths { get; }

    IEnumerable<T> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters);

    IAsyncEnumerable<T> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken);

    /// <summary>The number of documents <see cref="Execute"/> would return, without materializing them.</summary>
    long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters);

    ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken);

    /// <summary>The plan the source would use, as <see cref="QueryPlan.Explain"/> text.</summary>
    string Explain(DocumentQuery query);
}

using System.Text;
using BLite.Bson;
using BLite.Core.Collections;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Core.Vectors;

/// <summary>A nearest-neighbour query: the k documents nearest to a vector, optionally among those a filter accepts.</summary>
/// <param name="FieldPath">The indexed vector path (the index is found by it).</param>
/// <param name="Ef">The HNSW search beam; null for <see cref="VectorSearch.DefaultEf"/>. Always at least k.</param>
/// <param name="WalkCodes">Whether a walk copy's search compares 8-bit codes and re-ranks (the default), or float32 vectors (to compare the two).</param>
internal sealed record VectorQuery(string FieldPath, float[] Vector, int K, QueryFilter? Filter = null, int? Ef = null, bool WalkCodes = true);

/// <summary>One result: the document's bytes and its distance to the query vector.</summary>
internal readonly record struct VectorResult(ReadOnlyMemory<byte> Document, float Distance);

internal enum VectorStrategy
{
    /// <summary>HNSW traversal, the filter (if any) applied while searching.</summary>
    Hnsw,

    /// <summary>Exact distances over the candidates a secondary index finds for a selective filter.</summary>
    ExactOverIndexCandidates,
}

/// <summary>What the planner chose; <see cref="Explain"/> prints it.</summary>
internal sealed record VectorPlan(VectorIndexDefinition Index, VectorStrategy Strategy, int K, int Ef, QueryFilter? Filter, QueryPlan? CandidatePlan)
{
    public string Explain()
    {
        var text = new StringBuilder();
        text.Append(Strategy == VectorStrategy.Hnsw ? "VECTOR HNSW " : "VECTOR EXACT ")
            .Append(Index.Name).Append(" (").Append(Index.FieldPath).Append(") ")
            .Append(Index.Metric).Append(' ').Append(Index.Dimensions).Append('d');
        if (Strategy == VectorStrategy.Hnsw)
        {
            text.Append(" [ef ").Append(Ef).Append(']');
            text.Append("\n  filter: ").Append(Filter is null ? "none" : "applied during traversal: " + Filter);
            text.Append("\n  fallback: exact scan of the graph if fewer than k matches are found");
        }
        else
        {
            text.Append(" [candidates from index]");
            text.Append("\n  candidates: ").Append(CandidatePlan!.Explain().Replace("\n", "\n  ", StringComparison.Ordinal));
        }

        text.Append("\n  k: ").Append(K);
        return text.ToString();
    }
}

/// <summary>
/// Plans and runs <see cref="VectorQuery"/>s. The choice (docs/vector.md, "Planner"): without a
/// filter, HNSW. With a filter that a secondary index or the primary key can bound, exact
/// distances over just those candidates: a selective filter makes that both exact and cheap,
/// where a filtered graph walk would wander through many rejected nodes. Any other filter is
/// applied during the HNSW walk. A walk that finds fewer than k matches falls back to an exact
/// scan, so k results are returned whenever k documents match.
/// </summary>
internal static class VectorSearch
{
    public const int DefaultEf = 64;

    public static VectorPlan Plan(RawCollection collection, IPageReader pages, VectorQuery query) =>
        Plan(collection, pages, query, FindIndex(collection, pages, query.FieldPath));

    private static VectorPlan Plan(RawCollection collection, IPageReader pages, VectorQuery query, Collections.Catalog.VectorIndexInfo index)
    {
        if (query.K < 1)
        {
            throw new ArgumentOutOfRangeException(nameof(query), query.K, "A nearest-neighbour query needs k of at least 1.");
        }

        var ef = Math.Max(query.Ef ?? DefaultEf, query.K);
        if (query.Filter is not null)
        {
            var candidates = PlanExecutor.Plan(collection, pages, new DocumentQuery(query.Filter));
            if (!candidates.IsFullScan)
            {
                return new VectorPlan(index.Definition, VectorStrategy.ExactOverIndexCandidates, query.K, ef, query.Filter, candidates);
            }
        }

        return new VectorPlan(index.Definition, VectorStrategy.Hnsw, query.K, ef, query.Filter, null);
    }

    public static List<VectorResult> Execute(RawCollection collection, IPageReader pages, VectorQuery query, IReadOnlyList<BsonValue>? parameters = null)
    {
        var index = FindIndex(collection, pages, query.FieldPath);
        var plan = Plan(collection, pages, query, index);
        var graph = index.Open();
        var vector = new float[index.Definition.Dimensions];
        VectorDistance.Prepare(index.Definition, query.Vector, vector, "The query vector");
        List<VectorMatch> matches;
        if (plan.Strategy == VectorStrategy.ExactOverIndexCandidates)
        {
            var keys = new List<byte[]>();
            foreach (var document in PlanExecutor.Execute(collection, pages, plan.CandidatePlan!.Query, parameters, plan.CandidatePlan))
            {
                keys.Add(collection.GetPrimaryKey(document.Span));
            }

            matches = graph.ExactSearch(pages, vector, query.K, keys);
        }
        else
        {
            var accept = CreateFilter(collection, pages, query.Filter, parameters);
            matches = graph.Search(pages, vector, query.K, plan.Ef, accept, out _, query.WalkCodes);
            if (matches.Count < query.K && graph.Count(pages) > matches.Count)
            {
                matches = graph.ExactSearch(pages, vector, query.K, accept);
            }
        }

        var results = new List<VectorResult>(matches.Count);
        foreach (var match in matches)
        {
            if (collection.TryFindById(pages, match.PrimaryKey, out var document))
            {
                results.Add(new VectorResult(document.ToArray(), match.Distance));
            }
        }

        return results;
    }

    private static VectorCandidateFilter? CreateFilter(RawCollection collection, IPageReader pages, QueryFilter? filter, IReadOnlyList<BsonValue>? parameters)
    {
        if (filter is null)
        {
            return null;
        }

        var evaluator = FilterEvaluator.Create(filter, collection.Database.Fields, parameters);
        return primaryKey => collection.TryFindById(pages, primaryKey, out var document) && evaluator.Matches(document.Span);
    }

    private static Collections.Catalog.VectorIndexInfo FindIndex(RawCollection collection, IPageReader pages, string fieldPath)
    {
        var info = collection.Resolve(pages);
        if (info is not null)
        {
            foreach (var index in info.VectorIndexes)
            {
                if (string.Equals(index.Definition.FieldPath, fieldPath, StringComparison.Ordinal))
                {
                    return index;
                }
            }
        }

        throw new BLiteException($"Collection '{collection.Name}' has no vector index on '{fieldPath}'; declare one (HasVectorIndex) before searching it.");
    }
}

using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Query;

internal sealed partial class TypedQuerySource<TId, T>
{
    public IReadOnlyList<VectorMatch<T>> Nearest(VectorRequest request, QueryFilter? filter, IReadOnlyList<BsonValue> parameters)
    {
        var state = (Source: this, Query: ToVectorQuery(request, filter), Parameters: parameters);
        return _collection.Context.CurrentTransaction is { } transaction
            ? transaction.Run(state, static (pages, s) => s.Source.Nearest(pages, s.Query, s.Parameters))
            : _collection.Context.Read(state, static (pages, s) => s.Source.Nearest(pages, s.Query, s.Parameters));
    }

    public string ExplainNearest(VectorRequest request, QueryFilter? filter) =>
        _collection.Context.Read((Collection: _collection, Query: ToVectorQuery(request, filter)),
            static (pages, s) => Core.Vectors.VectorSearch.Plan(s.Collection.Documents, pages, s.Query).Explain());

    private static Core.Vectors.VectorQuery ToVectorQuery(VectorRequest request, QueryFilter? filter) =>
        new(request.FieldPath, request.Vector, request.K, filter, request.Ef);

    private List<VectorMatch<T>> Nearest(Core.Storage.IPageReader pages, Core.Vectors.VectorQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var results = Core.Vectors.VectorSearch.Execute(_collection.Documents, pages, query, parameters);
        var matches = new List<VectorMatch<T>>(results.Count);
        foreach (var result in results)
        {
            matches.Add(new VectorMatch<T>(_collection.Deserialize(result.Document.Span), result.Distance));
        }

        return matches;
    }
}

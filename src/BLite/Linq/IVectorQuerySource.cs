using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq;

/// <summary>A query source that can also run nearest-neighbour searches (typed collections).</summary>
internal interface IVectorQuerySource<T>
{
    IReadOnlyList<VectorMatch<T>> Nearest(VectorRequest request, QueryFilter? filter, IReadOnlyList<BsonValue> parameters);

    string ExplainNearest(VectorRequest request, QueryFilter? filter);
}

/// <summary>One execution's nearest-neighbour arguments.</summary>
internal sealed record VectorRequest(string FieldPath, float[] Vector, int K, int? Ef);

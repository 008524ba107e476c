using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq;

/// <summary>
/// A query source that can hand back only some values of each matching document (stored fields,
/// or values computed from one such as an array's count), read from the
/// raw C-BSON (<see cref="FieldProjection"/>) without materializing the document. The LINQ layer
/// uses it for projections and aggregates that read nothing but stored scalar fields.
/// </summary>
public interface IProjectingQuerySource
{
    /// <summary>For each document <c>Execute</c> would return, in order, the <paramref name="values"/> read from it (null where a path reaches nothing).</summary>
    IEnumerable<BsonValue[]> ExecuteFields(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values);

    IAsyncEnumerable<BsonValue[]> ExecuteFieldsAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values,
        CancellationToken cancellationToken);
}

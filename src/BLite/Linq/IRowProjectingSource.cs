using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq.Translation;

namespace BLite.Linq;

/// <summary>
/// A projecting source that can hand back a pushed-down projection's rows already converted to the
/// types the selector reads (typed member readers of a generated mapper), instead of the
/// <see cref="BsonValue"/> rows of <see cref="IProjectingQuerySource"/>.
/// </summary>
internal interface IRowProjectingSource
{
    /// <summary>The rows, or null when this source has no typed readers for the projection (the caller then converts <see cref="IProjectingQuerySource.ExecuteFields"/>).</summary>
    IEnumerable<object?[]>? ExecuteRows(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ProjectionPlan projection);

    /// <summary>
    /// The values of a projection of one stored member selected as is, read as <typeparamref name="TValue"/>,
    /// or null when this source has no typed reader of exactly that type for it (the caller then runs the rows).
    /// </summary>
    IEnumerable<TValue>? ExecuteValues<TValue>(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ProjectionPlan projection);
}

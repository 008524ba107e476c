using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Linq;

/// <summary>
/// A source whose plan depends on this execution's parameter values (a server store asks its
/// database to plan the statement it would run): Explain binds them before asking.
/// </summary>
internal interface IParameterizedExplainSource
{
    string Explain(DocumentQuery query, IReadOnlyList<BsonValue> parameters);
}

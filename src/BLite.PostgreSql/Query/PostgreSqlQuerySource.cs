using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;
using BLite.PostgreSql.Storage;

namespace BLite.PostgreSql.Query;

/// <summary>Runs translated LINQ queries of one collection as SQL over its jsonb table.</summary>
internal sealed class PostgreSqlQuerySource<TId, T>(PostgreSqlCollection<TId, T> table) : IDocumentQuerySource<T>
    where T : class
{
    public IFieldPathResolver FieldPaths => table.Collection.FieldPaths;

    public IEnumerable<T> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters) => throw new NotSupportedException("Queries on PostgreSQL are not available yet.");

    public IAsyncEnumerable<T> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken) => throw new NotSupportedException("Queries on PostgreSQL are not available yet.");

    public long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters) => throw new NotSupportedException("Queries on PostgreSQL are not available yet.");

    public ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken) => throw new NotSupportedException("Queries on PostgreSQL are not available yet.");

    public string Explain(DocumentQuery query) => throw new NotSupportedException("Queries on PostgreSQL are not available yet.");
}

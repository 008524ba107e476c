using System.Runtime.CompilerServices;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;
using BLite.PostgreSql.Storage;
using Npgsql;

namespace BLite.PostgreSql.Query;

/// <summary>
/// Runs translated LINQ queries of one collection as SQL over its jsonb table
/// (<see cref="SqlQueryBuilder"/>): documents, or only the projected values the server computes,
/// read through <see cref="SqlRows"/>.
/// </summary>
internal sealed class PostgreSqlQuerySource<TId, T>(PostgreSqlCollection<TId, T> table) : IDocumentQuerySource<T>, IProjectingQuerySource, IParameterizedExplainSource,
    IAggregatingQuerySource, IGroupingQuerySource
    where T : class
{
    public IFieldPathResolver FieldPaths => table.Collection.FieldPaths;

    public IEnumerable<T> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = Select(query, parameters);
        return SqlRows.Read(table.Store, sql, values, table.Deserialize);
    }

    public IAsyncEnumerable<T> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken)
    {
        var (sql, values) = Select(query, parameters);
        return SqlRows.ReadAsync(table.Store, sql, values, table.Deserialize, cancellationToken);
    }

    /// <summary>Projected values computed by the server (<see cref="SqlQueryBuilder.SelectValues"/>); no document is deserialized.</summary>
    public IEnumerable<BsonValue[]> ExecuteFields(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values)
    {
        var (sql, sqlValues) = SqlQueryBuilder.SelectValues(table.Table, query, parameters, table.Collection.IsSingleValuedPath, values);
        return SqlRows.Read(table.Store, sql, sqlValues, new ProjectedRow(values.Count).Read);
    }

    public IAsyncEnumerable<BsonValue[]> ExecuteFieldsAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values,
        CancellationToken cancellationToken)
    {
        var (sql, sqlValues) = SqlQueryBuilder.SelectValues(table.Table, query, parameters, table.Collection.IsSingleValuedPath, values);
        return SqlRows.ReadAsync(table.Store, sql, sqlValues, new ProjectedRow(values.Count).Read, cancellationToken);
    }

    public long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = SqlQueryBuilder.Count(table.Table, query, parameters, table.Collection.IsSingleValuedPath);
        return SqlRows.Count(table.Store, sql, values);
    }

    public async ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken)
    {
        var (sql, values) = SqlQueryBuilder.Count(table.Table, query, parameters, table.Collection.IsSingleValuedPath);
        return await SqlRows.CountAsync(table.Store, sql, values, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Sum / Average totals computed by the server (<see cref="SqlQueryBuilder.Totals"/>): one row crosses the wire.</summary>
    public AggregateTotals? Aggregate(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ValueExpression value, NumericKind kind)
    {
        var (sql, values) = SqlQueryBuilder.Totals(table.Table, query, parameters, table.Collection.IsSingleValuedPath, value, kind);
        return SqlRows.Totals(table.Store, sql, values);
    }

    public async ValueTask<AggregateTotals?> AggregateAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, ValueExpression value, NumericKind kind,
        CancellationToken cancellationToken)
    {
        var (sql, values) = SqlQueryBuilder.Totals(table.Table, query, parameters, table.Collection.IsSingleValuedPath, value, kind);
        return await SqlRows.TotalsAsync(table.Store, sql, values, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Groups formed by the server (<see cref="SqlQueryBuilder.Groups"/>): one row per group crosses the wire.</summary>
    public IReadOnlyList<GroupTotals>? Group(DocumentQuery query, IReadOnlyList<BsonValue> parameters, GroupQuery group) =>
        SqlQueryBuilder.Groups(table.Table, query, parameters, table.Collection.IsSingleValuedPath, group) is var (sql, values)
            ? SqlRows.Groups(table.Store, sql, values, group)
            : null;

    public async ValueTask<IReadOnlyList<GroupTotals>?> GroupAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, GroupQuery group,
        CancellationToken cancellationToken) =>
        SqlQueryBuilder.Groups(table.Table, query, parameters, table.Collection.IsSingleValuedPath, group) is var (sql, values)
            ? await SqlRows.GroupsAsync(table.Store, sql, values, group, cancellationToken).ConfigureAwait(false)
            : null;

    /// <summary>PostgreSQL's plan for a query without parameter slots (LINQ binds its values through the overload).</summary>
    public string Explain(DocumentQuery query) => Explain(query, []);

    /// <summary>PostgreSQL's plan for the statement this execution would run, as <c>EXPLAIN</c> prints it.</summary>
    public string Explain(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        var (sql, values) = Select(query, parameters);
        return SqlRows.Explain(table.Store, sql, values);
    }

    private (string Sql, List<NpgsqlParameter> Values) Select(DocumentQuery query, IReadOnlyList<BsonValue>? parameters) =>
        SqlQueryBuilder.Select(table.Table, query, parameters, table.Collection.IsSingleValuedPath, "doc");

}

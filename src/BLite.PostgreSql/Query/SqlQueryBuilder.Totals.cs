using BLite.Bson;
using BLite.Core.Query;
using Npgsql;

namespace BLite.PostgreSql.Query;

internal sealed partial class SqlQueryBuilder
{
    /// <summary>
    /// One row of totals of a value over the matching documents, for a terminal Sum or Average
    /// (<c>IAggregatingQuerySource</c>): <c>count(*)</c>, the non-null values, the numbers of the
    /// kind among them, their exact numeric sum as text, and, for doubles, their sum added in query
    /// order as float8, as LINQ adds them. Doubles are only added when no partial sum can leave
    /// float8's range (PostgreSQL raises an error where .NET gives infinity; NaN and infinities
    /// count as unsafe too); the last column says whether they were, and the caller streams the
    /// values otherwise.
    /// </summary>
    public static (string Sql, List<NpgsqlParameter> Parameters) Totals(string table, DocumentQuery query, IReadOnlyList<BsonValue>? values,
        Func<string, bool> isSingleValued, ValueExpression value, NumericKind kind)
    {
        var builder = new SqlQueryBuilder(values, isSingleValued);
        var column = builder.Value(value, "doc");
        var integral = kind is NumericKind.Int32 or NumericKind.Int64;
        var doubles = kind == NumericKind.Double;
        builder._sql.Append("SELECT count(*), count(v), count(n)").Append(integral ? " FILTER (WHERE n = trunc(n))" : "")
            .Append(doubles ? ", '0'" : ", COALESCE(sum(n), 0)::text")
            .Append(doubles ? ", COALESCE(sum(n::float8) FILTER (WHERE safe), 0), COALESCE(bool_and(safe), true)" : ", 0::float8, true")
            .Append(" FROM (SELECT v, n")
            .Append(doubles ? ", COALESCE(max(abs(n)) OVER () * count(n) OVER () < 1e300, true) AS safe" : "")
            .Append(" FROM (SELECT v, blite_num(v) AS n FROM (SELECT ").Append(column).Append(" AS v FROM ").Append(table);
        builder.Where(query.Filter);
        builder.OrderBy(query.Sort);
        builder.Limits(query, values);
        builder._sql.Append(") matches) numbers) totals");
        return (builder._sql.ToString(), builder._parameters);
    }
}

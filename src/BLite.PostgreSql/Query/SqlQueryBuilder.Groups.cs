using System.Text;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;
using Npgsql;

namespace BLite.PostgreSql.Query;

internal sealed partial class SqlQueryBuilder
{
    /// <summary>
    /// One <c>GROUP BY</c> statement for <c>GroupBy(key).Select(g => ...)</c>
    /// (<c>IGroupingQuerySource</c>), one row per group in order of its first document, as LINQ
    /// forms groups: the matching documents are numbered in query order (<c>row_number()</c> over
    /// the query's ORDER BY, then its LIMIT / OFFSET), and grouped by the key's extractor for the key
    /// type, so groups are the key type's equality classes (numbers by value, strings ordinally,
    /// instants by their instant). Columns (<see cref="SqlRows.Groups"/>): <c>{"v": [the key (the
    /// first document's where equal keys may differ in form, <see cref="KeyHasOneForm"/>),
    /// the Min / Max of each such aggregate...]}</c>, <c>count(*)</c>, whether every key is of the
    /// key's class, then per aggregate with a value: its non-null values, those of the expected
    /// class, the exact sum and the sums of the positive and negative numbers as text, the doubles
    /// added in query order, and whether none was too large to add safely. Returns null when the
    /// key or a Min / Max value has a type no extractor compares.
    /// </summary>
    public static (string Sql, List<NpgsqlParameter> Parameters)? Groups(string table, DocumentQuery query, IReadOnlyList<BsonValue>? values,
        Func<string, bool> isSingleValued, GroupQuery group)
    {
        if (SqlValue.ExtractorFor(group.KeyType) is not { } keyExtractor)
        {
            return null;
        }

        var builder = new SqlQueryBuilder(values, isSingleValued);
        var inner = new StringBuilder("SELECT ").Append(builder.Value(group.Key, "doc")).Append(" AS k");
        var extracted = new StringBuilder("SELECT k, ").Append(string.Format(System.Globalization.CultureInfo.InvariantCulture, keyExtractor, "k")).Append(" AS kx");
        var extremes = new StringBuilder("jsonb_build_object('v', jsonb_build_array((array_agg(k").Append(KeyHasOneForm(group.KeyType) ? "" : " ORDER BY o").Append("))[1]");
        var totals = new StringBuilder();
        for (var i = 0; i < group.Aggregates.Count; i++)
        {
            var aggregate = group.Aggregates[i];
            if (aggregate.Value is null)
            {
                continue;
            }

            var (a, x) = ("a" + i, "x" + i);
            inner.Append(", ").Append(builder.Value(aggregate.Value, "doc")).Append(" AS ").Append(a);
            if (aggregate.Kind is GroupAggregateKind.Min or GroupAggregateKind.Max)
            {
                if (SqlValue.ExtractorFor(aggregate.ValueType) is not { } extractor)
                {
                    return null;
                }

                var direction = aggregate.Kind == GroupAggregateKind.Max ? " DESC" : "";
                extracted.Append(", ").Append(a).Append(", ").Append(string.Format(System.Globalization.CultureInfo.InvariantCulture, extractor, a)).Append(" AS ").Append(x);
                extremes.Append(", (array_agg(").Append(a).Append(" ORDER BY ").Append(x).Append(direction).Append(", o) FILTER (WHERE ").Append(x).Append(" IS NOT NULL))[1]");
                totals.Append(", count(").Append(a).Append("), count(").Append(x).Append("), '0', '0', '0', 0::float8, true");
                continue;
            }

            extracted.Append(", ").Append(a).Append(", blite_num(").Append(a).Append(") AS ").Append(x);
            totals.Append(", count(").Append(a).Append("), count(").Append(x).Append(')')
                .Append(aggregate.Numeric is NumericKind.Int32 or NumericKind.Int64 ? $" FILTER (WHERE {x} = trunc({x}))" : "");
            totals.Append(aggregate.Numeric == NumericKind.Double
                ? $", '0', '0', '0', COALESCE(sum({x}::float8 ORDER BY o) FILTER (WHERE abs({x}) < 1e280), 0), COALESCE(bool_and(abs({x}) < 1e280), true)"
                : $", COALESCE(sum({x}), 0)::text, COALESCE(sum({x}) FILTER (WHERE {x} > 0), 0)::text, COALESCE(sum({x}) FILTER (WHERE {x} < 0), 0)::text, 0::float8, true");
        }

        var order = builder.OrderTerms(query.Sort);
        builder._sql.Append("SELECT ").Append(extremes).Append(")), count(*), count(k) = count(kx)").Append(totals)
            .Append(" FROM (").Append(extracted).Append(", o FROM (")
            .Append(inner).Append(", row_number() OVER (ORDER BY ").Append(order).Append(") AS o FROM ").Append(table);
        builder.Where(query.Filter);
        if (query.Skip is not null || query.Take is not null)
        {
            builder._sql.Append(" ORDER BY o");
            builder.Limits(query, values);
        }

        builder._sql.Append(") matches) extracted GROUP BY kx ORDER BY min(o)");
        return (builder._sql.ToString(), builder._parameters);
    }

    /// <summary>
    /// Whether equal keys of this type read back as the same value, so any document of a group may
    /// name it; decimals (scale), doubles (-0.0), DateTime (Kind) and DateTimeOffset (offset) take the
    /// first document's, as LINQ does.
    /// </summary>
    private static bool KeyHasOneForm(Type keyType)
    {
        var type = Nullable.GetUnderlyingType(keyType) ?? keyType;
        return type != typeof(decimal) && type != typeof(double) && type != typeof(float) && type != typeof(DateTime) && type != typeof(DateTimeOffset);
    }
}

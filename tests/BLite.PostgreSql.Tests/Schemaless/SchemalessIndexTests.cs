using BLite.Bson;
using BLite.Core.Collections;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;
using Npgsql;

namespace BLite.PostgreSql.Tests.Schemaless;

/// <summary>
/// <c>EnsureIndex</c> on a schemaless collection, one test class for both providers: the same
/// definitions, the same refusals, the same query results, and a plan that uses the index (on
/// PostgreSQL a GIN index over the keys a path reaches, or a unique B-tree over the one value it holds).
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class SchemalessIndexTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Indexes_are_created_listed_redefinition_refused_and_dropped(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using (var context = new ProviderContext(database.Options()))
        {
            var events = context.Database.GetCollection("events");
            events.Insert(BsonDocument.Parse("""{ "kind": "a", "source": { "host": "h1" }, "tags": ["x", "y"] }"""));

            Assert.True(events.EnsureIndex("by_kind", "kind"));
            Assert.False(events.EnsureIndex("by_kind", "kind"));
            Assert.True(events.EnsureIndex(new IndexDefinition("by_host_kind", ["source.host", "kind"])));
            Assert.True(events.EnsureIndex("by_tag", "tags"));
            Assert.True(events.EnsureIndex("by_email", "email", unique: true));
            var redefine = Assert.Throws<BLiteException>(() => events.EnsureIndex("by_kind", "source.host"));
            Assert.Equal("Collection 'events' already has an index 'by_kind' defined as by_kind (kind); drop it before redefining it as by_kind (source.host).", redefine.Message);
            Assert.True(events.DropIndex("by_tag"));
            Assert.False(events.DropIndex("by_tag"));
        }

        // The definitions outlive the context, as the embedded catalog's do.
        using var reopened = new ProviderContext(database.Options());
        var names = reopened.Database.GetCollection("events").GetIndexes().Select(i => i.ToString()).Order(StringComparer.Ordinal);
        Assert.Equal(["by_email (email) unique", "by_host_kind (source.host, kind)", "by_kind (kind)"], names);
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Indexed_queries_return_what_a_scan_returns_and_use_the_index(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        var documents = Enumerable.Range(0, 3000).Select(i => BsonDocument.Parse($$"""
            { "_id": {{i}}, "kind": "k{{i % 500}}", "n": {{(i % 7 == 0 ? $"{{\"$numberDecimal\": \"{i % 50}.0\"}}" : (i % 50).ToString(System.Globalization.CultureInfo.InvariantCulture))}},
              "lines": [ { "sku": "s{{i % 300}}" }, { "sku": "t{{i % 11}}" } ], "email": "u{{i}}@x.io" }
            """)).ToList();
        events.InsertMany(documents);
        string[] filters =
        [
            """{ "kind": "k7" }""", """{ "n": 12 }""", """{ "n": { "$in": [3, 4.0] } }""", """{ "lines.sku": "s42" }""",
            """{ "lines.sku": { "$in": ["s1", "t3"] }, "kind": { "$ne": "k1" } }""", """{ "email": "u77@x.io" }""", """{ "email": { "$in": ["u1@x.io", "nobody"] } }""",
        ];
        var scanned = filters.Select(f => events.Find(f).Select(d => d["_id"].AsInt32).Order().ToList()).ToList();

        events.EnsureIndex("by_kind", "kind");
        events.EnsureIndex("by_n", "n");
        events.EnsureIndex("by_sku", "lines.sku");
        events.EnsureIndex("by_email", "email", unique: true);
        if (provider == Provider.PostgreSql)
        {
            Analyze(database.ConnectionString);
        }

        for (var i = 0; i < filters.Length; i++)
        {
            Assert.NotEmpty(scanned[i]);
            Assert.Equal(scanned[i], events.Find(filters[i]).Select(d => d["_id"].AsInt32).Order().ToList());
            Assert.Equal(scanned[i].Count, events.Count(filters[i]));
        }

        Assert.Contains("by_kind", events.Explain(filters[0]), StringComparison.Ordinal);
        Assert.Contains("by_sku", events.Explain(filters[3]), StringComparison.Ordinal);
        Assert.Contains("by_email", events.Explain(filters[5]), StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void A_unique_violation_raises_the_engine_exception_and_changes_nothing(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var users = context.Database.GetCollection("users");
        users.Insert(BsonDocument.Parse("""{ "_id": 1, "email": "ann@x.io", "n": 5 }"""));
        users.Insert(BsonDocument.Parse("""{ "_id": 2, "email": "bob@x.io", "n": 6 }"""));
        users.EnsureIndex("by_email", "email", unique: true);
        users.EnsureIndex("by_n", "n", unique: true);

        var insert = Assert.Throws<BLiteUniqueConstraintException>(() => users.Insert(BsonDocument.Parse("""{ "_id": 3, "email": "ann@x.io" }""")));
        Assert.Equal("by_email", insert.IndexName);
        Assert.Equal("\"ann@x.io\"", insert.DuplicateValue);
        var number = Assert.Throws<BLiteUniqueConstraintException>(() => users.Update(BsonDocument.Parse("""{ "_id": 2, "email": "bob@x.io", "n": 5.0 }""")));
        Assert.Equal("by_n", number.IndexName);

        // Inside a transaction the refused write changes nothing and the transaction goes on.
        using (var transaction = context.BeginTransaction())
        {
            users.Insert(BsonDocument.Parse("""{ "_id": 4, "email": "cara@x.io", "n": 7 }"""));
            Assert.Throws<BLiteUniqueConstraintException>(() => users.Upsert(BsonDocument.Parse("""{ "_id": 5, "email": "cara@x.io" }""")));
            users.Insert(BsonDocument.Parse("""{ "_id": 6, "email": "dan@x.io", "n": 8 }"""));
            transaction.Commit();
        }

        // Two documents without the field collide, as embedded: a missing value is null, and null is a value.
        users.Insert(BsonDocument.Parse("""{ "_id": 7, "email": "eve@x.io" }"""));
        Assert.Throws<BLiteUniqueConstraintException>(() => users.Insert(BsonDocument.Parse("""{ "_id": 8, "email": "fay@x.io" }""")));

        // An index the stored documents already violate is not created.
        var build = Assert.Throws<BLiteUniqueConstraintException>(() => users.EnsureIndex("by_missing", "nothing", unique: true));
        Assert.Equal("by_missing", build.IndexName);

        Assert.Equal([1, 2, 4, 6, 7], users.FindAll().Select(d => d["_id"].AsInt32).Order().ToList());
        Assert.Equal(6, users.FindById(2)!["n"].AsInt32);
        Assert.Equal(["by_email", "by_n"], users.GetIndexes().Select(i => i.Name).Order(StringComparer.Ordinal));
    }

    /// <summary>A unique index holds one value per document on PostgreSQL; an array there is refused with a clear error and nothing is written.</summary>
    [Fact]
    public void On_postgresql_a_unique_path_holding_an_array_is_refused()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var context = new ProviderContext(database.Options());
        var users = context.Database.GetCollection("users");
        users.EnsureIndex("by_email", "email", unique: true);

        var refused = Assert.Throws<NotSupportedException>(() => users.Insert(BsonDocument.Parse("""{ "_id": 1, "email": ["a@x.io", "b@x.io"] }""")));

        Assert.Contains("the path email of a unique index reaches an array", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, users.Count());
    }

    /// <summary>Statistics, so the planner weighs the expression indexes on the rows just written.</summary>
    private static void Analyze(string connectionString)
    {
        using var connection = new NpgsqlConnection(connectionString);
        connection.Open();
        using var command = new NpgsqlCommand("ANALYZE events", connection);
        command.ExecuteNonQuery();
    }
}

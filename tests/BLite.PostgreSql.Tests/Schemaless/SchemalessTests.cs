using BLite.Bson;
using BLite.PostgreSql.Tests.Infrastructure;
using BLite.PostgreSql.Tests.Model;

namespace BLite.PostgreSql.Tests.Schemaless;

/// <summary>The schemaless API (<c>Database.GetCollection</c>), one test class for both providers.</summary>
[Collection(PostgresCollection.Name)]
public sealed class SchemalessTests(PostgresCluster cluster)
{
    public static TheoryData<Provider> Providers => ProviderDatabase.All;

    [Theory]
    [MemberData(nameof(Providers))]
    public void Insert_generates_an_object_id_and_find_by_id_reads_the_document_back(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        var document = BsonDocument.Parse("""{ "kind": "error", "n": 3, "source": { "host": "h1" } }""");

        var id = events.Insert(document);

        Assert.Equal(BsonType.ObjectId, id.Type);
        Assert.Equal(id, document["_id"]);
        Assert.Equal(SchemalessJson.Sorted(document), SchemalessJson.Sorted(events.FindById(id)!));
        Assert.Null(events.FindById(ObjectId.NewObjectId()));
        Assert.Equal(1, events.Count());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Every_value_type_round_trips_exactly(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        const string json = """
            { "_id": "t1/7",
              "decimal": { "$numberDecimal": "1.50" }, "long": { "$numberLong": "9007199254740993" },
              "nan": { "$numberDouble": "NaN" }, "negativeZero": { "$numberDouble": "-0.0" },
              "date": { "$date": "2024-05-01T10:00:00.123Z" }, "uuid": { "$uuid": "0f8fad5b-d9cb-469f-a165-70867728950e" },
              "nul": "a\u0000b", "nested": [[1, "a"], { "x": null }, []], "empty": {} }
            """;
        var document = BsonDocument.Parse(json);

        var id = events.Insert(document);

        Assert.Equal(SchemalessJson.Sorted(BsonDocument.Parse(json)), SchemalessJson.Sorted(events.FindById(id)!));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Json_filters_select_the_same_documents_in_id_order(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        Assert.Equal(6, events.InsertMany(
        [
            BsonDocument.Parse("""{ "_id": 5, "kind": "error", "n": 3, "tags": ["a", "b"], "source": { "host": "h1" } }"""),
            BsonDocument.Parse("""{ "_id": 2, "kind": "debug", "n": 1, "tags": ["c"], "source": { "host": "h2" } }"""),
            BsonDocument.Parse("""{ "_id": 9, "kind": "error", "n": 10.5, "tags": [], "source": { "host": "h1" } }"""),
            BsonDocument.Parse("""{ "_id": 1, "kind": "info", "n": null }"""),
            BsonDocument.Parse("""{ "_id": 7, "kind": "error", "n": { "$numberLong": "2" }, "lines": [{ "sku": "x", "qty": 2 }, { "sku": "y", "qty": 5 }] }"""),
            BsonDocument.Parse("""{ "_id": 3, "kind": "info" }"""),
        ]));

        int[] Ids(string filter) => events.Find(filter).Select(d => d["_id"].AsInt32).ToArray();

        Assert.Equal([1, 2, 3, 5, 7, 9], Ids("{}"));
        Assert.Equal([5, 7, 9], Ids("""{ "kind": "error" }"""));
        Assert.Equal([5, 9], Ids("""{ "kind": "error", "n": { "$gt": 2 } }"""));
        Assert.Equal([2, 7], Ids("""{ "n": { "$gte": 1, "$lte": 2 } }"""));
        Assert.Equal([5, 9], Ids("""{ "source.host": "h1" }"""));
        Assert.Equal([5], Ids("""{ "tags": "a" }"""));
        Assert.Equal([2, 5], Ids("""{ "tags": { "$in": ["a", "c"] } }"""));
        Assert.Equal([7], Ids("""{ "lines": { "$elemMatch": { "sku": "y", "qty": { "$gt": 4 } } } }"""));
        Assert.Equal([1, 3], Ids("""{ "n": null }"""));
        Assert.Equal([3], Ids("""{ "n": { "$exists": false } }"""));
        Assert.Equal([1, 2, 3, 7], Ids("""{ "$or": [{ "kind": { "$ne": "error" } }, { "n": { "$lt": 3 } }] }"""));
        Assert.Equal([2], Ids("""{ "_id": { "$gt": 1, "$lt": 3 } }"""));
        Assert.Equal(5, events.FindOne("""{ "kind": "error" }""")!["_id"].AsInt32);
        Assert.Null(events.FindOne("""{ "kind": "none" }"""));
        Assert.Equal([1, 2, 3, 5, 7, 9], events.FindAll().Select(d => d["_id"].AsInt32));
        Assert.Equal(3, events.Count("""{ "kind": "error" }"""));
        Assert.Equal(2L, events.LongCount("""{ "kind": "info" }"""));
        Assert.True(events.Exists("""{ "source.host": "h2" }"""));
        Assert.False(events.Exists("""{ "source.host": "h3" }"""));
        var plan = events.Explain("""{ "kind": "error" }""");
        if (provider == Provider.PostgreSql)
        {
            Assert.Matches(@"^(Seq|Index) Scan .*on events [\s\S]*Filter: .*kind", plan);
        }
        else
        {
            Assert.StartsWith("COLLSCAN", plan, StringComparison.Ordinal);
        }

        Assert.Equal(3, events.DeleteMany("""{ "kind": "error" }"""));
        Assert.Equal([1, 2, 3], Ids("{}"));
    }

    /// <summary>
    /// Ordering by paths that may reach arrays, as the engine orders: by the least value reached
    /// (the greatest descending), array items standing for the array, type classes first, nothing
    /// reached as null; ties in _id order; paging after ordering.
    /// </summary>
    [Theory]
    [MemberData(nameof(Providers))]
    public void Queries_order_and_page_by_any_path_as_the_engine_does(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        events.InsertMany(
        [
            BsonDocument.Parse("""{ "_id": 1, "n": 5, "tags": ["m", "b"], "lines": [{ "qty": 4 }, { "qty": 9 }] }"""),
            BsonDocument.Parse("""{ "_id": 2, "n": "text", "tags": "k", "lines": [{ "qty": 1 }] }"""),
            BsonDocument.Parse("""{ "_id": 3, "n": null, "tags": [], "lines": [] }"""),
            BsonDocument.Parse("""{ "_id": 4, "n": 2.5, "tags": ["z"], "lines": [{ "qty": 7 }, { "qty": { "$numberLong": "2" } }] }"""),
            BsonDocument.Parse("""{ "_id": 5, "tags": ["a", "y"] }"""),
            BsonDocument.Parse("""{ "_id": 6, "n": { "$numberDecimal": "5" }, "tags": ["c"], "lines": [{ "qty": 3 }] }"""),
        ]);

        int[] Ids(string path, bool descending, long? skip = null, long? take = null) => events
            .Find(new BLite.Core.Query.DocumentQuery(null, [new BLite.Core.Query.SortKey(BLite.Core.Query.FieldPath.Parse(path), descending)],
                skip is null ? null : BLite.Core.Query.FilterOperand.FromConstant(skip.Value), take is null ? null : BLite.Core.Query.FilterOperand.FromConstant(take.Value)))
            .Select(d => d["_id"].AsInt32).ToArray();

        Assert.Equal([3, 5, 4, 1, 6, 2], Ids("n", descending: false));
        Assert.Equal([2, 1, 6, 4, 3, 5], Ids("n", descending: true));
        Assert.Equal([3, 5, 1, 6, 2, 4], Ids("tags", descending: false));
        Assert.Equal([4, 5, 1, 2, 6, 3], Ids("tags", descending: true));
        Assert.Equal([3, 5, 2, 4, 6, 1], Ids("lines.qty", descending: false));
        Assert.Equal([1, 4, 6, 2, 3, 5], Ids("lines.qty", descending: true));
        Assert.Equal([4, 6], Ids("lines.qty", descending: false, skip: 3, take: 2));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Update_upsert_and_delete_report_whether_a_document_was_there(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        events.Insert(BsonDocument.Parse("""{ "_id": "a", "n": 1 }"""));

        Assert.True(events.Update(BsonDocument.Parse("""{ "_id": "a", "n": 2 }""")));
        Assert.False(events.Update(BsonDocument.Parse("""{ "_id": "ghost", "n": 2 }""")));
        Assert.False(events.Upsert(BsonDocument.Parse("""{ "_id": "a", "n": 3 }""")));
        Assert.True(events.Upsert(BsonDocument.Parse("""{ "_id": "b", "n": 4 }""")));
        var generated = BsonDocument.Parse("""{ "n": 5 }""");
        Assert.True(events.Upsert(generated));
        Assert.Equal(BsonType.ObjectId, generated["_id"].Type);
        Assert.Equal(3, events.FindById("a")!["n"].AsInt32);
        Assert.True(events.Delete("a"));
        Assert.False(events.Delete("a"));
        Assert.Equal(2, events.Count());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public async Task The_async_operations_behave_as_the_synchronous_ones(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");

        var id = await events.InsertAsync(BsonDocument.Parse("""{ "kind": "error", "n": 1 }"""));
        await events.InsertAsync(BsonDocument.Parse("""{ "_id": 1, "kind": "info" }"""));
        Assert.True(await events.UpdateAsync(BsonDocument.Parse($$"""{ "_id": { "$oid": "{{id.AsObjectId}}" }, "kind": "error", "n": 2 }""")));
        Assert.False(await events.UpsertAsync(BsonDocument.Parse("""{ "_id": 1, "kind": "debug" }""")));
        Assert.True(await events.UpsertAsync(BsonDocument.Parse("""{ "kind": "debug" }""")));
        Assert.Equal(2, (await events.FindByIdAsync(id))!["n"].AsInt32);
        Assert.Equal(3, await events.CountAsync());
        Assert.Equal(2, await events.CountAsync("""{ "kind": "debug" }"""));
        Assert.Equal(2, await events.FindAsync("""{ "kind": "debug" }""").CountAsync());
        Assert.Equal(2, await events.DeleteManyAsync("""{ "kind": "debug" }"""));
        Assert.True(await events.DeleteAsync(id));
        Assert.Equal(0L, await events.LongCountAsync());
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Writes_take_part_in_the_context_transaction(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");

        using (var transaction = context.BeginTransaction())
        {
            events.Insert(BsonDocument.Parse("""{ "_id": 1 }"""));
            context.Counters.Insert(new Counter { Name = "with the event" });
            Assert.Single(events.Find("{}"));
            transaction.Rollback();
        }

        Assert.Equal(0, events.Count());
        Assert.Equal(0, context.Counters.Count());
        using (var transaction = context.BeginTransaction())
        {
            events.Insert(BsonDocument.Parse("""{ "_id": 2 }"""));
            transaction.Commit();
        }

        Assert.Equal(2, events.FindById(2)!["_id"].AsInt32);
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void A_duplicate_id_is_refused_with_the_same_error_and_changes_nothing(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        events.Insert(BsonDocument.Parse("""{ "_id": 1, "n": "first" }"""));

        var single = Assert.Throws<BLiteUniqueConstraintException>(() => events.Insert(BsonDocument.Parse("""{ "_id": 1, "n": "second" }""")));
        var many = Assert.Throws<BLiteUniqueConstraintException>(() => events.InsertMany(
            [BsonDocument.Parse("""{ "_id": 2 }"""), BsonDocument.Parse("""{ "_id": 1 }""")]));

        Assert.Equal("Collection 'events' already has a document with _id 1.", single.Message);
        Assert.Equal(single.Message, many.Message);
        Assert.Equal("first", events.FindById(1)!["n"].AsString);
        Assert.Equal(1, events.Count());

        // Inside the caller's transaction the refused document changes nothing and the transaction
        // stays usable; the batch's earlier documents stay in it, on both providers.
        using var transaction = context.BeginTransaction();
        events.Insert(BsonDocument.Parse("""{ "_id": 3 }"""));
        Assert.Throws<BLiteUniqueConstraintException>(() => events.InsertMany(
            [BsonDocument.Parse("""{ "_id": 4 }"""), BsonDocument.Parse("""{ "_id": 3, "n": "again" }""")]));
        Assert.Equal([1, 3, 4], events.FindAll().Select(d => d["_id"].AsInt32));
        transaction.Commit();
        Assert.Equal(3, events.Count());
        Assert.False(events.FindById(3)!.ContainsKey("n"));
    }

    [Theory]
    [MemberData(nameof(Providers))]
    public void Bad_input_gets_the_same_clear_error_on_both_providers(Provider provider)
    {
        using var database = new ProviderDatabase(cluster, provider);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");
        events.Insert(BsonDocument.Parse("""{ "_id": 1, "n": 1 }"""));

        var unknown = Assert.Throws<JsonFilterException>(() => events.Find("""{ "n": { "$regex": "1" } }"""));
        Assert.Contains("Unknown operator '$regex' on field 'n'", unknown.Message, StringComparison.Ordinal);
        Assert.Throws<JsonFilterException>(() => events.DeleteMany("""{ "n": """));
        var noId = Assert.Throws<BLiteException>(() => events.Update(BsonDocument.Parse("""{ "n": 2 }""")));
        Assert.Equal("A document stored in collection 'events' needs an _id field.", noId.Message);
        var arrayId = Assert.Throws<BLiteException>(() => events.Insert(BsonDocument.Parse("""{ "_id": [1, 2] }""")));
        Assert.Equal("A document's _id cannot be an array.", arrayId.Message);
        var nullId = Assert.Throws<BLiteException>(() => events.Upsert(BsonDocument.Parse("""{ "_id": null }""")));
        Assert.Equal("A document's _id cannot be null.", nullId.Message);
        var compound = BsonDocument.Parse("""{ "_id": { "tenant": "t1", "seq": 7 } }""");
        if (provider == Provider.PostgreSql)
        {
            var refused = Assert.Throws<NotSupportedException>(() => events.Insert(compound));
            Assert.Equal("Schemaless collection 'events' on a server provider takes scalar _id values only: jsonb does not keep a compound _id's field order, which is part of its identity.", refused.Message);
        }
        else
        {
            Assert.True(events.Delete(events.Insert(compound)));
        }

        Assert.Equal(1, events.FindById(1)!["n"].AsInt32);
        Assert.Equal(1, events.Count());
    }

    /// <summary>A typed table keeps its ids in a typed column, a schemaless one encoded keys: neither API opens the other's table.</summary>
    [Fact]
    public void On_postgresql_a_collection_is_either_typed_or_schemaless()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using (var context = new ProviderContext(database.Options()))
        {
            var typed = Assert.Throws<NotSupportedException>(() => context.Database.GetCollection("orders"));
            Assert.Equal("Collection 'orders' is stored on PostgreSQL by a typed collection (its ids in a typed column); the schemaless API reads it on the embedded engine only.", typed.Message);
        }

        using var other = new ProviderDatabase(cluster, Provider.PostgreSql);
        using (var context = new Linq.LinqContext(other.Options()))
        {
            context.Database.GetCollection("orders").Insert(BsonDocument.Parse("""{ "_id": 1 }"""));
        }

        var schemaless = Assert.Throws<NotSupportedException>(() => new ProviderContext(other.Options()));
        Assert.Equal("Collection 'orders' is stored on PostgreSQL as a schemaless collection (its ids as encoded keys); a typed collection cannot open it.", schemaless.Message);
    }

    [Fact]
    public void The_embedded_engine_operations_name_themselves_on_postgresql()
    {
        using var database = new ProviderDatabase(cluster, Provider.PostgreSql);
        using var context = new ProviderContext(database.Options());
        var events = context.Database.GetCollection("events");

        var feed = Assert.Throws<NotSupportedException>(() => events.EnableChangeFeed());

        Assert.Contains("EnableChangeFeed", feed.Message, StringComparison.Ordinal);
        Assert.Throws<NotSupportedException>(() => context.Database.Checkpoint());
    }
}

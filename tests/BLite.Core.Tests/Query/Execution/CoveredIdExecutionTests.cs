using BLite.Bson;
using BLite.Core.Query;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>
/// An <c>_id</c>-only answer from a secondary index's entries: each document once, in the order
/// of the document plan (index order for an equality, <c>_id</c> order for an index join), paged
/// the same, with no document read when the ids decode exactly from the keys. A multikey index
/// keeps its filter re-check, so it is never covered and reads documents as before.
/// </summary>
public class CoveredIdExecutionTests
{
    private static readonly string[] Tags = ["a", "b", "c", "d", "e", "f"];

    [Fact]
    public void Covered_ids_equal_the_document_plan_and_read_nothing()
    {
        using var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_tag", "tag");
        items.EnsureIndex("by_tags", "tags");
        IndexDescriptor[] singleValued = [IndexDescriptor.PrimaryKey, new("by_tag", ["tag"])];
        var random = new Random(1616);
        for (var i = 0; i < 300; i++)
        {
            // String and ObjectId ids; arrays repeat tags, some hold a bare tag or none.
            BsonValue id = i % 2 == 0 ? $"k{random.Next(100000):D6}-{i}" : ObjectId.NewObjectId();
            var tags = new BsonArray();
            for (var t = random.Next(0, 5); t > 0; t--)
            {
                tags.Add(Tags[random.Next(Tags.Length)]);
            }

            var document = new BsonDocument { { "_id", id }, { "tags", tags } };
            if (i % 13 != 0)
            {
                document.Add("tag", Tags[random.Next(Tags.Length)]);
            }

            items.Insert(document);
        }

        using var read = database.BeginRead();
        var filters = Tags.Select(t => QueryFilter.Eq("tag", t))
            .Concat([QueryFilter.In("tag", new BsonArray { "c", "a", "c" }), QueryFilter.In("tag", new BsonArray { "f", "b", "e", "zz" })]);
        var compared = 0;
        foreach (var filter in filters)
        {
            foreach (var (skip, take) in new (long?, long?)[] { (null, null), (3, 5), (null, 1), (40, null), (0, 0) })
            {
                var query = new DocumentQuery(filter, null, skip is { } s ? FilterOperand.FromConstant(s) : null, take is { } t ? FilterOperand.FromConstant(t) : null);
                var plan = PlanExecutor.Plan(items.Documents, read, query, singleValued);
                Assert.True(plan.Explain().Contains("covers: _id", StringComparison.Ordinal), plan.Explain());
                var expected = PlanExecutor.Execute(items.Documents, read, query, plan: plan).Select(d => IdOf(d, database)).ToList();

                var readBefore = items.Documents.DocumentsRead;
                var ids = PlanExecutor.TryExecuteIds(items.Documents, read, query, null, plan);
                Assert.NotNull(ids);
                var actual = ids.Select(d => IdOf(d, database)).ToList();
                Assert.Equal(readBefore, items.Documents.DocumentsRead);
                Assert.Equal(expected, actual);
                Assert.Equal(actual.Count, actual.Distinct().Count());
                compared += actual.Count;
            }
        }

        Assert.True(compared > 300, $"only {compared} ids compared");

        var multiKey = new DocumentQuery(QueryFilter.Eq("tags", "a"));
        var multiKeyPlan = PlanExecutor.Plan(items.Documents, read, multiKey);
        Assert.StartsWith("IXSCAN by_tags", multiKeyPlan.Explain(), StringComparison.Ordinal);
        Assert.DoesNotContain("covers: _id", multiKeyPlan.Explain(), StringComparison.Ordinal);
        Assert.Null(PlanExecutor.TryExecuteIds(items.Documents, read, multiKey, null, multiKeyPlan));
    }

    private static string IdOf(ReadOnlyMemory<byte> document, DocumentDatabase database) => BsonDocument.FromBytes(document.Span, database.Fields)["_id"].ToString();
}

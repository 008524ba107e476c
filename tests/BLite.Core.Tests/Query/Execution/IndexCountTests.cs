using BLite.Bson;
using BLite.Core.Query;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Query.Execution;

/// <summary>
/// A count whose filter the index bounds express entirely walks index entries and reads no
/// document; a value whose key pieces may be wider than itself falls back to re-checking documents.
/// </summary>
public class IndexCountTests
{
    private const int Documents = 2000;
    private static readonly string[] Statuses = ["pending", "confirmed", "shipped", "delivered"];

    private static DocumentDatabase Open(out IReadOnlyList<IndexDescriptor> indexes)
    {
        var database = DocumentDatabase.OpenInMemory();
        var items = database.GetCollection("items");
        items.EnsureIndex("by_status", "status");
        items.EnsureIndex("by_at", "at");
        items.InsertMany(Enumerable.Range(0, Documents).Select(i => new BsonDocument
        {
            { "_id", i },
            { "status", Statuses[i % Statuses.Length] },
            { "at", new DateTime(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc).AddDays(i % 5) },
            { "padding", new string('x', 600) },
        }).ToList());

        // The caller knows both paths are single-valued, as a typed model does.
        indexes = [IndexDescriptor.PrimaryKey, new IndexDescriptor("by_status", [FieldPath.Parse("status")]), new IndexDescriptor("by_at", [FieldPath.Parse("at")])];
        return database;
    }

    private static (long Count, int Pages) CountWithPageReads(DocumentDatabase database, DocumentQuery query, IReadOnlyList<IndexDescriptor> indexes, out string explain)
    {
        var items = database.GetCollection("items");
        using var read = database.BeginRead();
        var counting = new CountingPageReader(read);
        var plan = PlanExecutor.Plan(items.Documents, read, query, indexes);
        explain = plan.Explain();
        var count = PlanExecutor.Count(items.Documents, counting, query, plan: plan);
        return (count, counting.Reads);
    }

    [Fact]
    public void An_index_covered_count_reads_index_pages_only()
    {
        using var database = Open(out var indexes);

        var covered = CountWithPageReads(database, new DocumentQuery(QueryFilter.Eq("status", "shipped")), indexes, out var explain);
        var uncovered = CountWithPageReads(database, new DocumentQuery(QueryFilter.And(QueryFilter.Eq("status", "shipped"), QueryFilter.Exists("padding"))), indexes, out var uncoveredExplain);

        Assert.Equal(Documents / 4, covered.Count);
        Assert.Equal(Documents / 4, uncovered.Count);
        Assert.Contains("count: index entries only", explain, StringComparison.Ordinal);
        Assert.DoesNotContain("count: index entries only", uncoveredExplain, StringComparison.Ordinal);
        // 500 documents of ~650 bytes fill well over a hundred pages; their index entries a handful.
        Assert.True(covered.Pages * 10 < uncovered.Pages, $"covered count read {covered.Pages} pages, the document count {uncovered.Pages}");
    }

    [Fact]
    public void A_covered_count_honours_in_lists_skip_and_take()
    {
        using var database = Open(out var indexes);
        var inList = new DocumentQuery(QueryFilter.In("status", FilterOperand.FromConstant(new BsonArray { "pending", "shipped", "nope" })));
        var paged = new DocumentQuery(QueryFilter.Eq("status", "pending"), [], FilterOperand.FromConstant(490), FilterOperand.FromConstant(20));

        var both = CountWithPageReads(database, inList, indexes, out var explain);
        Assert.Equal(Documents / 2, both.Count);
        Assert.Contains("count: index entries only", explain, StringComparison.Ordinal);
        Assert.Equal(10, CountWithPageReads(database, paged, indexes, out _).Count);
    }

    [Fact]
    public void A_count_on_an_instant_rechecks_documents_because_its_key_run_is_wider_than_the_value()
    {
        using var database = Open(out var indexes);
        var day = new DateTime(2026, 1, 3, 0, 0, 0, DateTimeKind.Utc);

        var counted = CountWithPageReads(database, new DocumentQuery(QueryFilter.Eq("at", day)), indexes, out var explain);

        Assert.Equal(Documents / 5, counted.Count);
        Assert.Contains("count: index entries only", explain, StringComparison.Ordinal);
        var covered = CountWithPageReads(database, new DocumentQuery(QueryFilter.Eq("status", "shipped")), indexes, out _);
        Assert.True(counted.Pages > covered.Pages * 10, $"instant count read {counted.Pages} pages, the covered one {covered.Pages}");
    }

    private sealed class CountingPageReader(IPageReader inner) : IPageReader
    {
        public int Reads { get; private set; }

        public int PagePayloadSize => inner.PagePayloadSize;

        public ReadOnlyMemory<byte> ReadPage(uint pageId)
        {
            Reads++;
            return inner.ReadPage(pageId);
        }
    }
}

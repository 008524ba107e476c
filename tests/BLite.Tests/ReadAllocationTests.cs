using BLite.Bson;
using BLite.Tests.Diagnostics;
using BLite.Tests.Model;

namespace BLite.Tests;

/// <summary>
/// A point read should cost the returned object graph and nothing else: no key buffer, no
/// snapshot object. Allocation counts are deterministic for a warm call on one thread, so this
/// asserts bytes, never time. Another test's metrics listener would add its recording to the
/// count, so these run with the unobserved tests.
/// </summary>
[Collection(nameof(UnobservedMetrics))]
public sealed class ReadAllocationTests : IDisposable
{
    private const int WarmCalls = 3;
    private const int Samples = 5;
    private readonly TempDirectory _directory = new();
    private readonly ShopContext _db;

    public ReadAllocationTests()
    {
        _db = new ShopContext(_directory.File());
    }

    public void Dispose()
    {
        _db.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void FindById_allocates_no_more_than_deserializing_the_same_document()
    {
        _db.Orders.InsertMany(Orders.Many(20));
        var id = _db.Orders.Insert(Orders.Create(21));
        var stored = StoredBytes(id);

        var findById = LeastAllocated(() => _db.Orders.FindById(id));
        var deserialize = LeastAllocated(() => Deserialize(stored));

        Assert.True(findById <= deserialize, $"FindById allocated {findById} B; deserializing the same bytes allocates {deserialize} B.");
    }

    [Fact]
    public void Exists_by_id_allocates_nothing()
    {
        var id = _db.Orders.Insert(Orders.Create(1));

        Assert.Equal(0, LeastAllocated(() => _db.Orders.Exists(id)));
    }

    [Fact]
    public void Exists_by_id_reads_no_document_even_one_spread_over_overflow_pages()
    {
        _db.Labels.Insert(new Label { Id = "large", Text = new string('x', 40_000) });

        Assert.True(_db.Labels.Exists("large"));
        Assert.False(_db.Labels.Exists("missing"));
        Assert.Equal(0, LeastAllocated(() => _db.Labels.Exists("large")));
    }

    [Fact]
    public void FindById_of_a_short_string_id_allocates_no_more_than_deserializing_the_document()
    {
        _db.Labels.Insert(new Label { Id = "label-0001", Text = "first" });
        var stored = _db.Engine.Read(_db.Labels.Documents, static (pages, documents) =>
            documents.TryFindById(pages, Core.Collections.IndexKeys.EncodeId("label-0001"), out var bytes) ? bytes.ToArray() : []);

        var findById = LeastAllocated(() => _db.Labels.FindById("label-0001"));
        var deserialize = LeastAllocated(() =>
        {
            var reader = new BsonSpanReader(stored);
            return _db.Labels.Mapper.Deserialize(ref reader);
        });

        Assert.True(findById <= deserialize, $"FindById allocated {findById} B; deserializing the same bytes allocates {deserialize} B.");
    }

    [Fact]
    public void FindById_of_a_document_spread_over_overflow_pages_allocates_no_more_than_deserializing_it()
    {
        var text = string.Concat(Enumerable.Range(0, 4_000).Select(i => $"{i:D4}-"));
        _db.Labels.Insert(new Label { Id = "large", Text = text });
        var stored = _db.Engine.Read(_db.Labels.Documents, static (pages, documents) =>
            documents.TryFindById(pages, Core.Collections.IndexKeys.EncodeId("large"), out var bytes) ? bytes.ToArray() : []);

        var findById = LeastAllocated(() => _db.Labels.FindById("large"));
        var deserialize = LeastAllocated(() =>
        {
            var reader = new BsonSpanReader(stored);
            return _db.Labels.Mapper.Deserialize(ref reader);
        });

        Assert.Equal(text, _db.Labels.FindById("large")!.Text);
        Assert.True(findById <= deserialize, $"FindById allocated {findById} B; deserializing the same bytes allocates {deserialize} B.");
    }

    [Fact]
    public void A_typed_projected_point_lookup_allocates_only_its_result_object()
    {
        _db.Orders.InsertMany(Orders.Many(20));
        var order = Orders.Create(21);
        var id = _db.Orders.Insert(order);
        var lookup = _db.Orders.Project(o => new StatusAndTotal(o.Status, o.Total));
        Assert.True(lookup.IsTyped);
        Assert.Equal(new StatusAndTotal(order.Status, order.Total), lookup.FindById(id));

        var projected = LeastAllocated(() => lookup.FindById(id));
        // The status is a short repeated string: it comes from the thread's string table, as it
        // does for FindById, so the record is all a lookup allocates.
        var result = LeastAllocated(() => new StatusAndTotal(order.Status, order.Total));

        Assert.True(result > 0);
        Assert.Equal(result, projected);
    }

    private byte[] StoredBytes(ObjectId id) =>
        _db.Engine.Read(_db.Orders.Documents, (pages, documents) =>
            documents.TryFindById(pages, Core.Collections.IndexKeys.EncodeId(id), out var bytes) ? bytes.ToArray() : throw new InvalidOperationException("The order was not stored."));

    private CustomerOrder Deserialize(byte[] stored)
    {
        var reader = new BsonSpanReader(stored);
        return _db.Orders.Mapper.Deserialize(ref reader);
    }

    internal sealed record StatusAndTotal(string Status, decimal Total);

    private static long LeastAllocated<TResult>(Func<TResult> call)
    {
        for (var i = 0; i < WarmCalls; i++)
        {
            GC.KeepAlive(call());
        }

        var least = long.MaxValue;
        for (var i = 0; i < Samples; i++)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            var result = call();
            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
            GC.KeepAlive(result);
            least = Math.Min(least, allocated);
        }

        return least;
    }
}

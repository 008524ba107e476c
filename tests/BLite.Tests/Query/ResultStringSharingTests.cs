using BLite.Tests.Model;

namespace BLite.Tests.Query;

/// <summary>
/// A query's documents take their short strings from the thread's string table: a value repeated
/// across the result is one instance, and every value still reads back exactly as stored, with
/// and without an index, streamed or materialised, after updates.
/// </summary>
public sealed class ResultStringSharingTests : IDisposable
{
    private readonly List<CustomerOrder> _orders = Orders.Many(120);
    private readonly ShopContext _indexed = new(DocumentDbContextOptions.ForMemory());
    private readonly PlainShopContext _plain = new(DocumentDbContextOptions.ForMemory());

    public ResultStringSharingTests()
    {
        _indexed.Orders.InsertMany(_orders);
        _plain.Orders.InsertMany(_orders.Select(o => Orders.Create(int.Parse(o.OrderNumber[4..]), o.Id)));
    }

    public void Dispose()
    {
        _indexed.Dispose();
        _plain.Dispose();
    }

    [Fact]
    public void A_status_repeated_across_a_result_is_one_instance_with_and_without_an_index()
    {
        var status = _orders[0].Status;
        foreach (var found in new[] { _indexed.Orders.Find(o => o.Status == status).ToList(), _plain.Orders.Find(o => o.Status == status).ToList() })
        {
            Assert.Equal(_orders.Count(o => o.Status == status), found.Count);
            Assert.True(found.Count > 10);
            Assert.All(found, order => Assert.Same(found[0].Status, order.Status));
            Assert.Equal(status, found[0].Status);
        }
    }

    [Fact]
    public void Streamed_and_materialised_results_equal_what_was_stored()
    {
        var expected = _orders.OrderBy(o => o.Id).ToList();

        var streamed = new List<CustomerOrder>();
        foreach (var order in _plain.Orders.Query().OrderBy(o => o.Id).AsEnumerable())
        {
            streamed.Add(order);
        }

        var materialised = _indexed.Orders.Query().Where(o => o.Total >= 0m).OrderBy(o => o.Id).ToList();
        foreach (var found in new[] { streamed, materialised })
        {
            Assert.Equal(expected.Count, found.Count);
            for (var i = 0; i < expected.Count; i++)
            {
                Assert.Equal(expected[i].OrderNumber, found[i].OrderNumber);
                Assert.Equal(expected[i].Status, found[i].Status);
                Assert.Equal(expected[i].Customer.FullName, found[i].Customer.FullName);
                Assert.Equal(expected[i].Customer.Email, found[i].Customer.Email);
                Assert.Equal(expected[i].Tags, found[i].Tags);
                Assert.Equal(expected[i].Lines.Select(l => l.Sku), found[i].Lines.Select(l => l.Sku));
            }
        }
    }

    [Fact]
    public void A_changed_value_is_read_as_changed_after_the_old_one_was_shared()
    {
        var status = _orders[0].Status;
        var before = _indexed.Orders.Find(o => o.Status == status).ToList();
        var changed = before[3];
        changed.Status = status + "-held";
        Assert.True(_indexed.Orders.Update(changed));

        var after = _indexed.Orders.Find(o => o.Id == changed.Id || o.Status == status).ToList();

        Assert.Equal(before.Count, after.Count);
        Assert.Equal(status + "-held", Assert.Single(after, o => o.Id == changed.Id).Status);
        Assert.All(after.Where(o => o.Id != changed.Id), order => Assert.Equal(status, order.Status));
    }

    [Fact]
    public void Reads_by_id_share_a_repeated_value_and_read_every_value_as_stored()
    {
        var first = _orders[0];
        var second = _orders.First(o => o.Id != first.Id && o.Status == first.Status);

        var readFirst = _indexed.Orders.FindById(first.Id)!;
        var readSecond = _indexed.Orders.FindById(second.Id)!;

        Assert.Same(readFirst.Status, readSecond.Status);
        foreach (var (expected, found) in new[] { (first, readFirst), (second, readSecond) })
        {
            Assert.Equal(expected.Status, found.Status);
            Assert.Equal(expected.OrderNumber, found.OrderNumber);
            Assert.Equal(expected.Customer.Email, found.Customer.Email);
            Assert.Equal(expected.Tags, found.Tags);
            Assert.Equal(expected.Lines.Select(l => l.Sku), found.Lines.Select(l => l.Sku));
        }
    }
}

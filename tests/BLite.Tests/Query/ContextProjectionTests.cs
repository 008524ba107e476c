using BLite.Linq;
using BLite.Tests.Model;

namespace BLite.Tests.Query;

/// <summary>Projections and aggregates pushed down to raw documents of a real collection, against LINQ to Objects.</summary>
public sealed class ContextProjectionTests : IDisposable
{
    private readonly List<CustomerOrder> _orders = Orders.Many(120);
    private readonly ShopContext _shop = new(DocumentDbContextOptions.ForMemory());

    public ContextProjectionTests() => _shop.Orders.InsertMany(_orders);

    public void Dispose() => _shop.Dispose();

    [Fact]
    public void A_projection_with_a_nested_path_reads_the_fields_from_raw_bytes()
    {
        var expected = _orders.Where(o => o.Status == "shipped").OrderBy(o => o.Id)
            .Select(o => new { o.Id, o.Status, o.Total, Email = o.Customer.Email }).ToList();
        var query = _shop.Orders.Query().Where(o => o.Status == "shipped").OrderBy(o => o.Id)
            .Select(o => new { o.Id, o.Status, o.Total, Email = o.Customer.Email });

        Assert.Equal(expected, query.ToList());
        Assert.NotEmpty(expected);
        Assert.Contains("fields read: _id, Status, Total, Customer.email (no document materialized)", query.Explain());
    }

    [Fact]
    public async Task Aggregates_and_groups_over_a_collection_match_LINQ_to_objects()
    {
        Assert.Equal(_orders.Sum(o => o.Total), _shop.Orders.Query().Sum(o => o.Total));
        Assert.Equal(_orders.Max(o => o.PlacedAt), await _shop.Orders.Query().MaxAsync(o => o.PlacedAt));
        var expected = _orders.GroupBy(o => o.Status).Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total) }).OrderBy(g => g.Key).ToList();
        var actual = _shop.Orders.Query().GroupBy(o => o.Status).Select(g => new { g.Key, Count = g.Count(), Total = g.Sum(o => o.Total) }).ToList();
        Assert.Equal(expected, actual.OrderBy(g => g.Key).ToList());
        Assert.Contains("fields read: Status, Total", _shop.Orders.Query().GroupBy(o => o.Status).Select(g => new { g.Key, Total = g.Sum(o => o.Total) }).Explain());
    }

    [Fact]
    public void Aggregates_without_a_selector_after_a_single_member_Select_match_LINQ_to_objects()
    {
        var shipped = _orders.Where(o => o.Status == "shipped").ToList();
        Assert.NotEmpty(shipped);
        Assert.Equal(shipped.Select(o => o.Total).Sum(), _shop.Orders.Query().Where(o => o.Status == "shipped").Select(o => o.Total).Sum());
        Assert.Equal(_orders.Select(o => o.Total).Average(), _shop.Orders.Query().Select(o => o.Total).Average());
        Assert.Equal(_orders.Select(o => o.PlacedAt).Min(), _shop.Orders.Query().Select(o => o.PlacedAt).Min());
        Assert.Equal(_orders.Select(o => o.Total).Max(), _shop.Orders.Query().Select(o => o.Total).Max());
        Assert.Equal(0m, _shop.Orders.Query().Where(o => o.Status == "no such status").Select(o => o.Total).Sum());
        Assert.Contains("fields read: Total", _shop.Orders.Query().Select(o => o.Total).Explain());
    }

    [Fact]
    public void Sums_over_the_lines_of_an_order_read_the_raw_line_items()
    {
        var expected = _orders.OrderBy(o => o.Id)
            .Select(o => new { o.Id, Items = o.Lines.Sum(l => l.Quantity), Value = o.Lines.Sum(l => l.Quantity * l.UnitPrice), Top = o.Lines.Max(l => (decimal?)l.UnitPrice) })
            .ToList();
        var query = _shop.Orders.Query().OrderBy(o => o.Id)
            .Select(o => new { o.Id, Items = o.Lines.Sum(l => l.Quantity), Value = o.Lines.Sum(l => l.Quantity * l.UnitPrice), Top = o.Lines.Max(l => (decimal?)l.UnitPrice) });

        Assert.Equal(expected, query.ToList());
        Assert.Contains(expected, o => o.Items > 0);
        Assert.Contains("fields read: _id, $sum($Lines, $Quantity), $sum($Lines, ($Quantity * $UnitPrice)), $max($Lines, $UnitPrice) (no document materialized)",
            query.Explain());

        var lookup = _shop.Orders.Project(o => o.Lines.Average(l => (double?)l.Quantity));
        foreach (var order in _orders.Take(10))
        {
            Assert.Equal(order.Lines.Average(l => (double?)l.Quantity), lookup.FindById(order.Id));
        }
    }

    [Fact]
    public void A_projected_point_lookup_by_id_reads_two_fields()
    {
        var target = _orders[37];
        var query = _shop.Orders.Query().Where(o => o.Id == target.Id).Select(o => new { o.Status, o.Total });
        Assert.Equal(new { target.Status, target.Total }, query.Single());
        var explain = query.Explain();
        Assert.StartsWith("PKSCAN", explain);
        Assert.Contains("fields read: Status, Total", explain);
    }

    [Fact]
    public async Task Inside_a_transaction_a_projection_sees_the_transactions_own_writes()
    {
        using var transaction = _shop.BeginTransaction();
        var added = Orders.Create(9001);
        added.Status = "in-transaction";
        _shop.Orders.Insert(added);

        Assert.Equal([added.OrderNumber], _shop.Orders.Query().Where(o => o.Status == "in-transaction").Select(o => o.OrderNumber).ToList());
        Assert.Equal([added.OrderNumber], await _shop.Orders.Query().Where(o => o.Status == "in-transaction").Select(o => o.OrderNumber).ToListAsync());
        Assert.Equal(_orders.Sum(o => o.Total) + added.Total, _shop.Orders.Query().Sum(o => o.Total));
    }

    [Fact]
    public void A_prepared_projection_finds_by_id_reading_only_its_fields()
    {
        var card = _shop.Orders.Project(o => new { o.Status, o.Total, Mail = o.Customer.Email.ToUpperInvariant() });
        Assert.Equal(["Status", "Total", "Customer.email"], card.Fields.Select(Core.Query.FieldProjection.Describe));
        foreach (var order in _orders.Take(20))
        {
            Assert.Equal(new { order.Status, order.Total, Mail = order.Customer.Email.ToUpperInvariant() }, card.FindById(order.Id));
        }

        Assert.Null(card.FindById(ObjectId.NewObjectId()));
        Assert.False(_shop.Orders.Project(o => o.Total).TryFindById(ObjectId.NewObjectId(), out var missing));
        Assert.Equal(0m, missing);
    }

    [Fact]
    public void A_prepared_projection_of_members_into_a_constructor_reads_them_typed()
    {
        var card = _shop.Orders.Project(o => new OrderCard(o.OrderNumber, o.Total, o.PlacedAt, o.Customer.Email));
        var anonymous = _shop.Orders.Project(o => new { o.Status, o.Total });
        foreach (var order in _orders.Take(25))
        {
            Assert.Equal(new OrderCard(order.OrderNumber, order.Total, order.PlacedAt, order.Customer.Email), card.FindById(order.Id));
            Assert.Equal(new { order.Status, order.Total }, anonymous.FindById(order.Id));
        }

        Assert.Null(card.FindById(ObjectId.NewObjectId()));
    }

    private sealed record OrderCard(string Number, decimal Total, DateTime PlacedAt, string Email);

    [Fact]
    public void A_prepared_projection_binds_its_literals_and_captured_values_once()
    {
        var vat = 1.2m;
        var card = _shop.Orders.Project(o => new { Gross = o.Total * vat, Big = o.Lines.Count(l => l.Quantity > 2), Taxed = o.Lines.Sum(l => l.Quantity * l.UnitPrice * vat), Half = o.Lines.Sum(l => l.Quantity * 0.5) });
        Assert.Equal(["Total", "$count($Lines, { 'Quantity': { '$gt': @p1 } })", "$sum($Lines, (($Quantity * $UnitPrice) * @p2))", "$sum($Lines, ($Quantity * @p3))"],
            card.Fields.Select(Core.Query.FieldProjection.Describe));
        Assert.Contains(_orders, o => o.Lines.Count(l => l.Quantity > 2) > 0);
        foreach (var order in _orders.Take(30))
        {
            Assert.Equal(new { Gross = order.Total * vat, Big = order.Lines.Count(l => l.Quantity > 2), Taxed = order.Lines.Sum(l => l.Quantity * l.UnitPrice * vat), Half = order.Lines.Sum(l => l.Quantity * 0.5) },
                card.FindById(order.Id));
        }
    }

    [Theory]
    [InlineData("whole", "it uses the whole document 'o'")]
    [InlineData("list", "'o.Lines' is a collection (List<OrderLine>) used other than through Count, Sum, Min, Max, Average or Count(condition)")]
    [InlineData("any", "'o.Lines' is a collection (List<OrderLine>)")]
    [InlineData("nested", "'o.Customer' is a nested object (CustomerContact), not a stored scalar")]
    [InlineData("constant", "it reads no stored field")]
    public void A_projection_that_needs_the_document_is_refused_naming_the_construct(string shape, string reason)
    {
        var error = Assert.Throws<NotSupportedException>(() => _ = shape switch
        {
            "whole" => (object)_shop.Orders.Project(o => new { o.Id, Order = o }),
            "list" => _shop.Orders.Project(o => new { o.Id, o.Lines }),
            "any" => _shop.Orders.Project(o => o.Lines.Any(l => l.Quantity > 2)),
            "nested" => _shop.Orders.Project(o => new { o.Customer, o.Status }),
            _ => _shop.Orders.Project(o => 42),
        });
        Assert.Contains("cannot be read from stored fields: " + reason, error.Message);
        Assert.Contains("Use Query().Select(...) instead", error.Message);
    }
}

using System.Linq.Expressions;
using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>Queries BLite cannot run in the engine fail loudly, naming the expression and the reason — never a silent in-memory fallback.</summary>
public class UnsupportedLinqTests
{
    private readonly IQueryable<Order> _orders = BLiteQuery.Create(new InMemoryQuerySource(TestData.Orders(5, 10)));

    public static TheoryData<string, string, string> Cases => new()
    {
        // case name, expected text in the message (the expression, literals shown as @pN slots), expected reason
        { "unknown computed member", "o.PlacedAt.Ticks", "one side must be computed from stored document fields" },
        { "compare result not zero", "Compare(o.Status, @p0)", "can only be compared with 0" },
        { "method on field", "o.Customer.Name.Trim()", "one side must be computed from stored document fields" },
        { "computed member", "o.Computed", "not stored" },
        { "culture comparison", "StartsWith", "only StringComparison.Ordinal or OrdinalIgnoreCase" },
        { "custom method", "IsBig(o)", "no equivalent on stored documents" },
        { "where after take", "Where", "Where after Skip/Take" },
        { "where after select", "Where", "Where after Select" },
        { "order by after select", "OrderBy", "OrderBy after Select" },
        { "computed ordering key", "o.Status.Length", "String.Length is computed from a stored value" },
        { "groupby without select", "GroupBy", "IGrouping results are not supported" },
        { "distinct documents", "Distinct", "Distinct needs a Select before it" },
        { "order by expression", "(o.Quantity * @p0)", "an ordering key must be a stored document field" },
        { "checked arithmetic on field", "(o.Quantity + @p0)", "one side must be computed from stored document fields" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Untranslatable_queries_throw_NotSupportedException_naming_the_expression(string caseName, string expression, string reason)
    {
        var error = Assert.Throws<NotSupportedException>(() => Run(caseName));
        Assert.Contains(expression, error.Message);
        Assert.Contains(reason, error.Message);
    }

    private static bool IsBig(Order order) => order.Quantity > 5;

    private object Run(string caseName) => caseName switch
    {
        "unknown computed member" => _orders.Where(o => o.PlacedAt.Ticks > 5).ToList(),
        "compare result not zero" => _orders.Where(o => string.Compare(o.Status, "p") > 1).ToList(),
        "method on field" => _orders.Where(o => o.Customer.Name.Trim() == "ann").ToList(),
        "computed member" => _orders.Where(o => o.Computed == "x").ToList(),
        "culture comparison" => _orders.Where(o => o.Status.StartsWith("p", StringComparison.CurrentCultureIgnoreCase)).ToList(),
        "custom method" => _orders.Where(o => IsBig(o)).ToList(),
        "where after take" => _orders.Take(3).Where(o => o.Paid).ToList(),
        "where after select" => _orders.Select(o => new { o.Id, o.Paid }).Where(x => x.Paid).ToList(),
        "order by after select" => _orders.Select(o => o.Quantity).OrderBy(q => q).ToList(),
        "computed ordering key" => _orders.OrderBy(o => o.Status.Length).ToList(),
        "groupby without select" => _orders.GroupBy(o => o.Status).ToList(),
        "distinct documents" => _orders.Distinct().ToList(),
        "order by expression" => _orders.OrderBy(o => o.Quantity * 2).ToList(),
        _ => _orders.Where(o => checked(o.Quantity + 1) > 3).ToList(),
    };

    [Fact]
    public void The_non_generic_CreateQuery_is_refused_with_a_clear_message()
    {
        var error = Assert.Throws<NotSupportedException>(() => _orders.Provider.CreateQuery(_orders.Expression));
        Assert.Contains("generic", error.Message);
    }

    [Fact]
    public void A_query_value_without_a_bson_equivalent_is_refused()
    {
        var probe = new Uri("http://example.com");
        Expression<Func<Order, bool>> predicate = o => o.Note == probe.Host;
        Assert.Empty(_orders.Where(predicate).ToList());
        var untranslatable = new { Value = 1 };
        var error = Assert.Throws<NotSupportedException>(() => _orders.Where(o => (object)o.Quantity == (object)untranslatable).ToList());
        Assert.Contains("no BSON equivalent", error.Message);
    }
}

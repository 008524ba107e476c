namespace BLite.Generators.Tests;

/// <summary>
/// Which prepared projections (<c>collection.Project(...)</c>) get a typed constructor, and that
/// the emitted registrations compile. Shapes left out keep the runtime's row path, so leaving one
/// out is never wrong, only slower; registering a shape the runtime would build differently is.
/// </summary>
public sealed class ProjectionConstructorTests
{
    private const string Model = """
        using System; using BLite; using BLite.Bson;
        namespace Shop;
        public sealed class Order
        {
            public ObjectId Id { get; set; }
            public string Status { get; set; } = "";
            public decimal Total { get; set; }
            public int Count { get; set; }
            public Address? Shipping { get; set; }
        }
        public sealed class Address { public string City { get; set; } = ""; public string? Zip { get; set; } }
        public sealed record Card(string Status, decimal Total);
        public sealed record Where(string? City, string? Zip);
        public readonly record struct Tag(ObjectId Id, int Count);
        public sealed class Summary(ObjectId id) { public ObjectId Id { get; } = id; public string? City { get; set; } public decimal Total; }
        public sealed record Wide(long Count);
        public partial class ShopContext : DocumentDbContext
        {
            public DocumentCollection<ObjectId, Order> Orders { get; set; } = null!;
        }
        """;

    [Fact]
    public void Constructors_and_initializers_of_stored_members_at_their_own_types_are_registered()
    {
        var text = Registrations("""
            namespace Shop;
            public static class Lookups
            {
                public static void Prepare(ShopContext db)
                {
                    db.Orders.Project(o => new Card(o.Status, o.Total));
                    db.Orders.Project(o => new Card(o.Status, o.Total));
                    db.Orders.Project(o => new Where(o.Shipping!.City, o.Shipping.Zip));
                    db.Orders.Project((Order o) => new Tag(o.Id, o.Count));
                    db.Orders.Project(o => new Summary(o.Id) { City = o.Shipping!.City, Total = o.Total });
                }
            }
            """);

        Assert.Contains("""Register<global::Shop.Order, global::Shop.Card>("new(Status,Total)",""", text, StringComparison.Ordinal);
        Assert.Contains("new global::Shop.Card(row.Read<string>(0), row.Read<decimal>(1))", text, StringComparison.Ordinal);
        Assert.Contains("""Register<global::Shop.Order, global::Shop.Where>("new(Shipping.City,Shipping.Zip)",""", text, StringComparison.Ordinal);
        Assert.Contains("row.Read<string?>(1)", text, StringComparison.Ordinal);
        Assert.Contains("""Register<global::Shop.Order, global::Shop.Tag>("new(Id,Count)",""", text, StringComparison.Ordinal);
        Assert.Contains("""Register<global::Shop.Order, global::Shop.Summary>("new(Id){City=Shipping.City,Total=Total}",""", text, StringComparison.Ordinal);
        Assert.Contains("new global::Shop.Summary(row.Read<global::BLite.ObjectId>(0)) { City = row.Read<string?>(1), Total = row.Read<decimal>(2) }", text, StringComparison.Ordinal);
        Assert.Equal(1, Occurrences(text, "global::Shop.Card>("));
        Assert.Contains("[global::System.Runtime.CompilerServices.ModuleInitializer]", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Computations_conversions_anonymous_types_hidden_and_generic_types_are_left_to_the_row_path()
    {
        var (result, output) = GeneratorHarness.Run(Model, """
            using System; using BLite; using BLite.Bson;
            namespace Shop;
            public static class Lookups
            {
                private sealed record Hidden(string Status);
                public static void Prepare(ShopContext db, decimal rate)
                {
                    db.Orders.Project(o => new Card(o.Status + "!", o.Total));
                    db.Orders.Project(o => new Card(o.Status, o.Total * rate));
                    db.Orders.Project(o => new Wide(o.Count));
                    db.Orders.Project(o => new { o.Status, o.Total });
                    db.Orders.Project(o => new Hidden(o.Status));
                    db.Orders.Project<object>(o => new Card(o.Status, o.Total));
                    new Lookalike().Project(o => new Card(o.Status, o.Total));
                }

                public static void Generic<TStatus>(DocumentCollection<ObjectId, Holder<TStatus>> holders) =>
                    holders.Project(h => new Box<TStatus>(h.Value));
            }
            public sealed class Holder<T> { public ObjectId Id { get; set; } public T Value { get; set; } = default!; }
            public sealed record Box<T>(T Value);
            public sealed class Lookalike { public void Project(Func<Order, Card> selector) { } }
            """);

        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        Assert.DoesNotContain(result.GeneratedSources, s => s.HintName == "BLite.ProjectionConstructors.g.cs");
    }

    private static string Registrations(string calls)
    {
        var (result, output) = GeneratorHarness.Run(Model, calls);
        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        return result.GeneratedSources.Single(s => s.HintName == "BLite.ProjectionConstructors.g.cs").SourceText.ToString();
    }

    private static int Occurrences(string text, string value)
    {
        var count = 0;
        for (var at = text.IndexOf(value, StringComparison.Ordinal); at >= 0; at = text.IndexOf(value, at + value.Length, StringComparison.Ordinal))
        {
            count++;
        }

        return count;
    }
}

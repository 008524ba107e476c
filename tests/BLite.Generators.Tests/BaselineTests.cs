using System.Runtime.CompilerServices;

namespace BLite.Generators.Tests;

/// <summary>
/// The generated source for representative models, compared with the checked-in files under
/// Baselines/{case}/. Set BLITE_UPDATE_BASELINES=1 to rewrite them after an intended change, then
/// review the diff.
/// </summary>
public sealed class BaselineTests
{
    private const string Usings = "using System; using System.Collections.Generic; using BLite; using BLite.Bson; using BLite.Bson.Mapping;\n";

    [Fact]
    public void Plain_document_with_nested_types_and_collections()
    {
        AssertMatchesBaseline(nameof(Plain_document_with_nested_types_and_collections), """
            namespace Shop;
            public sealed class Order
            {
                public ObjectId Id { get; set; }
                public string Number { get; set; } = "";
                public DateTime PlacedAt { get; set; }
                public decimal? Discount { get; set; }
                public Address Shipping { get; set; } = new();
                public List<Line> Lines { get; set; } = [];
                public Dictionary<string, string> Attributes { get; set; } = [];
                public Status Status { get; set; }
            }
            public enum Status { Open, Closed }
            public sealed class Address { public string City { get; set; } = ""; }
            public struct Line { public string Sku { get; set; } public int Quantity { get; set; } public string[] Tags { get; set; } }
            public partial class ShopContext : DocumentDbContext
            {
                public DocumentCollection<ObjectId, Order> Orders { get; set; } = null!;
            }
            """);
    }

    [Fact]
    public void Records_private_members_and_polymorphism()
    {
        AssertMatchesBaseline(nameof(Records_private_members_and_polymorphism), """
            namespace Zoo;
            [BLiteDocument("animals")]
            public sealed record Enclosure(Guid Id, string Name, Animal? Resident)
            {
                [BsonField("_v")] private int _version;
                public int Capacity { get; private set; }
            }
            [BLiteDerivedType(typeof(Lion), "lion")]
            public abstract class Animal { public string Name { get; set; } = ""; }
            public sealed class Lion : Animal { public int Roar { get; init; } }
            """);
    }

    [Fact]
    public void Custom_id_type_through_a_run_time_converter()
    {
        AssertMatchesBaseline(nameof(Custom_id_type_through_a_run_time_converter), """
            namespace Billing;
            public readonly record struct InvoiceId(Guid Value);
            public sealed class Invoice
            {
                public InvoiceId Id { get; set; }
                public decimal Amount { get; set; }
            }
            public partial class BillingContext : DocumentDbContext
            {
                public DocumentCollection<InvoiceId, Invoice> Invoices { get; set; } = null!;
            }
            """);
    }

    [Fact]
    public void Prepared_projections_into_named_types()
    {
        AssertMatchesBaseline(nameof(Prepared_projections_into_named_types), """
            namespace Shop;
            public sealed class Order
            {
                public ObjectId Id { get; set; }
                public string Status { get; set; } = "";
                public decimal Total { get; set; }
                public Address? Shipping { get; set; }
            }
            public sealed class Address { public string City { get; set; } = ""; }
            public sealed record Card(string Status, decimal Total);
            public sealed class Label(ObjectId id) { public ObjectId Id { get; } = id; public string? City { get; init; } }
            public partial class ShopContext : DocumentDbContext
            {
                public DocumentCollection<ObjectId, Order> Orders { get; set; } = null!;
            }
            public static class Lookups
            {
                public static void Prepare(ShopContext db)
                {
                    db.Orders.Project(o => new Card(o.Status, o.Total));
                    db.Orders.Project(o => new Label(o.Id) { City = o.Shipping!.City });
                    db.Orders.Project(o => new { o.Status });
                }
            }
            """);
    }

    private static void AssertMatchesBaseline(string caseName, string source, [CallerFilePath] string thisFile = "")
    {
        var (result, output) = GeneratorHarness.Run(Usings + source);
        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));

        var directory = Path.Combine(Path.GetDirectoryName(thisFile)!, "Baselines", caseName);
        var update = Environment.GetEnvironmentVariable("BLITE_UPDATE_BASELINES") == "1";
        if (update)
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }

            Directory.CreateDirectory(directory);
        }

        var expectedFiles = Directory.Exists(directory) ? Directory.GetFiles(directory).Select(f => Path.GetFileName(f)).Order(StringComparer.Ordinal).ToList() : [];
        var generated = result.GeneratedSources.OrderBy(s => s.HintName, StringComparer.Ordinal).ToList();
        foreach (var file in generated)
        {
            var path = Path.Combine(directory, file.HintName);
            var text = file.SourceText.ToString();
            if (update)
            {
                File.WriteAllText(path, text);
                continue;
            }

            Assert.True(File.Exists(path), $"No baseline {path}; run with BLITE_UPDATE_BASELINES=1 to create it.");
            Assert.Equal(File.ReadAllText(path).ReplaceLineEndings("\n"), text.ReplaceLineEndings("\n"));
        }

        if (!update)
        {
            Assert.Equal(expectedFiles, generated.Select(s => s.HintName).ToList());
        }
    }
}

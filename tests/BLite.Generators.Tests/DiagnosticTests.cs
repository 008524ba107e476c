using Microsoft.CodeAnalysis;

namespace BLite.Generators.Tests;

/// <summary>One test per diagnostic id: the error, where it points, and that no mapper is emitted for the broken type.</summary>
public sealed class DiagnosticTests
{
    private const string Usings = "using System; using System.Collections.Generic; using BLite; using BLite.Bson; using BLite.Bson.Mapping;\n";

    [Fact]
    public void BLITE001_a_member_of_an_unmappable_type_is_an_error_at_the_member()
    {
        var diagnostic = SingleError("""
            [BLiteDocument] public class Parcel { public int Id { get; set; } public object Payload { get; set; } = new(); }
            """, "BLITE001", "Payload");

        Assert.Contains("Parcel.Payload", diagnostic.GetMessage(), StringComparison.Ordinal);
    }

    [Fact]
    public void BLITE001_a_dictionary_with_non_string_keys_is_an_error()
    {
        SingleError("""
            [BLiteDocument] public class Parcel { public int Id { get; set; } public Dictionary<int, string> ByNumber { get; set; } = new(); }
            """, "BLITE001", "ByNumber");
    }

    [Theory]
    [InlineData("BsonRegex")]
    [InlineData("BsonTimestamp")]
    [InlineData("BsonDecimal128")]
    [InlineData("BsonJavaScript")]
    [InlineData("BsonSymbol")]
    [InlineData("BsonDbPointer")]
    [InlineData("BsonJavaScriptWithScope")]
    public void BLITE001_a_member_of_a_MongoDB_interop_type_is_an_error_typed_mappers_leave_it_to_schemaless_documents(string type)
    {
        var diagnostic = SingleError($$"""
            [BLiteDocument] public class Parcel { public int Id { get; set; } public {{type}} Mongo { get; set; } }
            """, "BLITE001", "Mongo");

        Assert.Contains(type, diagnostic.GetMessage(), StringComparison.Ordinal);
    }

    [Fact]
    public void BLITE001_a_reference_whose_id_type_is_not_stored_natively_is_an_error()
    {
        var diagnostic = SingleError("""
            public class Price { public int Id { get; set; } }
            [BLiteDocument] public class Quote { public int Id { get; set; } public DocumentRef<decimal, Price>? Price { get; set; } }
            """, "BLITE001", "Price");

        Assert.Contains("reference's id", diagnostic.GetMessage(), StringComparison.Ordinal);
    }

    [Fact]
    public void BLITE002_a_context_that_is_not_partial_is_an_error()
    {
        SingleError("""
            public class Item { public int Id { get; set; } }
            public class ShopContext : DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            """, "BLITE002", "ShopContext");
    }

    [Fact]
    public void BLITE003_a_document_without_an_id_is_an_error()
    {
        SingleError("""
            [BLiteDocument] public class Note { public string Text { get; set; } = ""; }
            """, "BLITE003", "Note");
    }

    [Fact]
    public void BLITE004_an_unsupported_id_type_is_an_error_at_the_id()
    {
        var diagnostic = SingleError("""
            [BLiteDocument] public class Price { public decimal Id { get; set; } }
            """, "BLITE004", "Id");

        Assert.Contains("decimal", diagnostic.GetMessage(), StringComparison.Ordinal);
    }

    [Fact]
    public void BLITE004_an_interface_id_is_an_error_but_a_class_or_struct_id_is_accepted_for_a_converter()
    {
        var diagnostic = SingleError("""
            [BLiteDocument] public class Parcel { public IComparable Id { get; set; } = null!; }
            """, "BLITE004", "Id");
        Assert.Contains("HasIdConverter", diagnostic.GetMessage(), StringComparison.Ordinal);

        var (result, output) = GeneratorHarness.Run(Usings + """
            public readonly record struct ParcelId(Guid Value);
            public sealed class Code { public string Value { get; set; } = ""; }
            [BLiteDocument] public class Parcel { public ParcelId Id { get; set; } }
            [BLiteDocument] public class Sender { public Code Id { get; set; } = new(); }
            """);
        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));
    }

    [Fact]
    public void BLITE005_two_collections_with_the_same_name_are_an_error()
    {
        SingleError("""
            [BLiteDocument("items")] public class Item { public int Id { get; set; } }
            public partial class ShopContext : DocumentDbContext
            {
                public DocumentCollection<int, Item> Items { get; set; } = null!;
                public DocumentCollection<int, Item> MoreItems { get; set; } = null!;
            }
            """, "BLITE005", "MoreItems", mappersOfValidTypesRemain: true);
    }

    [Fact]
    public void BLITE006_a_computed_property_that_cannot_be_read_back_is_an_error()
    {
        var diagnostic = SingleError("""
            [BLiteDocument] public class Line { public int Id { get; set; } public int Quantity { get; set; } public int Double => Quantity * 2; }
            """, "BLITE006", "Double");

        Assert.Contains("BsonIgnore", diagnostic.GetMessage(), StringComparison.Ordinal);
    }

    [Fact]
    public void BLITE007_a_type_without_a_usable_constructor_is_an_error()
    {
        SingleError("""
            [BLiteDocument] public class Token { public Token(string unrelated) { } public int Id { get; set; } }
            """, "BLITE007", "Token");
    }

    [Fact]
    public void BLITE008_two_members_stored_under_the_same_name_are_an_error()
    {
        SingleError("""
            [BLiteDocument] public class Pair { public int Id { get; set; } [BsonField("x")] public int A { get; set; } [BsonField("x")] public int B { get; set; } }
            """, "BLITE008", "B");
    }

    [Fact]
    public void BLITE009_a_derived_type_that_does_not_derive_is_an_error()
    {
        SingleError("""
            [BLiteDerivedType(typeof(Stranger), "s")] public abstract class Shape { public double Area { get; set; } }
            public class Stranger { }
            [BLiteDocument] public class Drawing { public int Id { get; set; } public Shape? Main { get; set; } }
            """, "BLITE009", "BLiteDerivedType(typeof(Stranger), \"s\")");
    }

    [Fact]
    public void BLITE010_a_type_the_generated_code_cannot_see_is_an_error()
    {
        SingleError("""
            public class Outer
            {
                [BLiteDocument] private class Hidden { public int Id { get; set; } }
            }
            """, "BLITE010", "Hidden");
    }

    [Fact]
    public void BLITE011_a_collection_property_without_a_setter_is_an_error()
    {
        SingleError("""
            public class Item { public int Id { get; set; } }
            public partial class ShopContext : DocumentDbContext { public DocumentCollection<int, Item> Items { get; } = null!; }
            """, "BLITE011", "Items");
    }

    [Fact]
    public void BLITE012_two_members_marked_as_id_are_an_error()
    {
        SingleError("""
            [BLiteDocument] public class Twin { [BsonId] public int First { get; set; } [BsonId] public int Second { get; set; } }
            """, "BLITE012", "Second");
    }

    [Fact]
    public void BLITE013_a_generic_collection_document_type_is_an_error()
    {
        SingleError("""
            public class Box<T> { public int Id { get; set; } public T? Content { get; set; } }
            public partial class ShopContext : DocumentDbContext { public DocumentCollection<int, Box<string>> Boxes { get; set; } = null!; }
            """, "BLITE013", "Boxes");
    }

    [Fact]
    public void BLITE014_a_collection_id_type_that_differs_from_the_document_id_is_an_error()
    {
        SingleError("""
            public class Item { public string Id { get; set; } = ""; }
            public partial class ShopContext : DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            """, "BLITE014", "Items");
    }

    [Fact]
    public void A_valid_model_reports_nothing_and_compiles()
    {
        var (result, output) = GeneratorHarness.Run(Usings + """
            [BLiteDocument] public class Item { public int Id { get; set; } public string Name { get; set; } = ""; }
            """);

        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));
    }

    /// <summary>Asserts exactly one generator diagnostic, an error with this id, whose location covers <paramref name="locationText"/>.</summary>
    private static Diagnostic SingleError(string source, string id, string locationText, bool mappersOfValidTypesRemain = false)
    {
        var (result, output) = GeneratorHarness.Run(Usings + source);

        var diagnostic = Assert.Single(result.Diagnostics);
        Assert.Equal(id, diagnostic.Id);
        Assert.Equal(DiagnosticSeverity.Error, diagnostic.Severity);
        Assert.Equal(locationText, GeneratorHarness.LocatedText(output, diagnostic));
        // Nothing half-mapped is emitted: no mapper for the broken type, no wiring for a broken context.
        Assert.DoesNotContain(result.GeneratedSources, s => s.SourceText.ToString().Contains("CreateCollections", StringComparison.Ordinal));
        if (!mappersOfValidTypesRemain)
        {
            Assert.Empty(result.GeneratedSources);
        }

        return diagnostic;
    }
}

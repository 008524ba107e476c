namespace BLite.Generators.Tests;

/// <summary>Which types the generator finds, by symbol rather than by name, and that what it emits compiles.</summary>
public sealed class DiscoveryTests
{
    private const string Usings = "using System; using System.Collections.Generic; using BLite; using BLite.Bson; using BLite.Bson.Mapping;\n";

    [Fact]
    public void A_context_nested_in_partial_types_and_nested_document_types_compile()
    {
        var (result, output) = GeneratorHarness.Run(Usings + """
            namespace App;
            public static partial class Host
            {
                public sealed class Item { public long Id { get; set; } }
                public partial class Data : DocumentDbContext { public DocumentCollection<long, Item> Items { get; set; } = null!; }
            }
            """);

        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        Assert.Contains(result.GeneratedSources, s => s.HintName == "App.Host_ItemDocumentMapper.g.cs");
    }

    [Fact]
    public void A_context_is_found_through_an_intermediate_base_class_whatever_its_name()
    {
        var (result, output) = GeneratorHarness.Run(Usings + """
            public class Item { public Guid Id { get; set; } }
            public abstract class Storage : DocumentDbContext { }
            public partial class Warehouse : Storage { public DocumentCollection<Guid, Item> Items { get; set; } = null!; }
            public partial class DbContextLookalike { public DocumentCollection<Guid, Item>? Items { get; set; } }
            """);

        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        var contexts = result.GeneratedSources.Where(s => s.SourceText.ToString().Contains("CreateCollections", StringComparison.Ordinal)).ToList();
        var context = Assert.Single(contexts);
        Assert.Contains("partial class Warehouse", context.SourceText.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_type_used_by_a_context_and_marked_BLiteDocument_gets_one_mapper()
    {
        var (result, output) = GeneratorHarness.Run(Usings + """
            [BLiteDocument] public class Item { public int Id { get; set; } }
            public partial class One : DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            public partial class Two : DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            """);

        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        Assert.Single(result.GeneratedSources, s => s.HintName.Contains("ItemDocumentMapper", StringComparison.Ordinal));
    }

    [Fact]
    public void An_abstract_context_gets_no_wiring_of_its_own()
    {
        var (result, _) = GeneratorHarness.Run(Usings + """
            public class Item { public int Id { get; set; } }
            public abstract partial class Base : DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            """);

        Assert.DoesNotContain(result.GeneratedSources, s => s.SourceText.ToString().Contains("CreateCollections", StringComparison.Ordinal));
    }
}

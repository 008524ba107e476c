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

    [Fact]
    public void A_context_is_found_through_an_alias_or_a_qualified_base_name()
    {
        var (result, output) = GeneratorHarness.Run("using Db = BLite.DocumentDbContext;\n" + Usings + """
            public class Item { public int Id { get; set; } }
            public partial class Aliased : Db { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            public partial class Qualified : global::BLite.DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            """);

        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        var wired = result.GeneratedSources.Select(s => s.SourceText.ToString()).Where(s => s.Contains("CreateCollections", StringComparison.Ordinal)).ToList();
        Assert.Equal(2, wired.Count);
        Assert.Contains(wired, s => s.Contains("partial class Aliased", StringComparison.Ordinal));
        Assert.Contains(wired, s => s.Contains("partial class Qualified", StringComparison.Ordinal));
    }

    [Fact]
    public void A_context_deriving_from_a_context_in_a_referenced_assembly_is_found()
    {
        var library = GeneratorHarness.Compile(Usings + """
            namespace Library;
            public class Item { public int Id { get; set; } }
            public abstract class LibraryContext : DocumentDbContext { public DocumentCollection<int, Item> Items { get; set; } = null!; }
            """).WithAssemblyName("ContextLibrary");
        using var image = new MemoryStream();
        Assert.True(library.Emit(image).Success);

        var (result, output) = GeneratorHarness.RunWith([Microsoft.CodeAnalysis.MetadataReference.CreateFromImage(image.ToArray())], Usings + """
            namespace App;
            public partial class AppContext : Library.LibraryContext { }
            """);

        Assert.Empty(result.Diagnostics);
        Assert.Empty(GeneratorHarness.CompilerErrors(output));
        var wiring = Assert.Single(result.GeneratedSources, s => s.SourceText.ToString().Contains("CreateCollections", StringComparison.Ordinal));
        Assert.Contains("partial class AppContext", wiring.SourceText.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void Only_classes_whose_base_chain_can_reach_the_context_type_are_bound()
    {
        var (result, _) = GeneratorHarness.Run(Usings + """
            public class Item { public Guid Id { get; set; } }
            public abstract class ServiceBase { }
            public class Billing : ServiceBase, IDisposable { public void Dispose() { } }
            public class Shipping : ServiceBase { }
            public abstract class Storage : DocumentDbContext { }
            public partial class Warehouse : Storage { public DocumentCollection<Guid, Item> Items { get; set; } = null!; }
            """);

        var step = Assert.Single(result.TrackedSteps[TrackingNames.ContextNames]);
        var names = Assert.IsType<BLite.Generators.Model.EquatableArray<string>>(Assert.Single(step.Outputs).Value);
        Assert.Equal(["DocumentDbContext", "Storage", "Warehouse"], names.ToArray());
        Assert.Contains(result.GeneratedSources, s => s.SourceText.ToString().Contains("partial class Warehouse", StringComparison.Ordinal));
    }
}

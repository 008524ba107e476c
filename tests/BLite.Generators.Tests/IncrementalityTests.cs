using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace BLite.Generators.Tests;

/// <summary>An edit that touches no model must leave every named pipeline step cached or unchanged.</summary>
public sealed class IncrementalityTests
{
    private const string Model = """
        using System.Collections.Generic; using BLite; using BLite.Bson; using BLite.Bson.Mapping;
        namespace Shop;
        [BLiteDocument] public sealed class Note { public int Id { get; set; } public string Text { get; set; } = ""; }
        public sealed class Order { public ObjectId Id { get; set; } public List<string> Tags { get; set; } = []; }
        public partial class ShopContext : DocumentDbContext { public DocumentCollection<ObjectId, Order> Orders { get; set; } = null!; }
        """;

    private const string Unrelated = """
        namespace Shop;
        public static class Pricing { public static decimal Tax(decimal amount) => amount * 0.21m; }
        """;

    private static readonly string[] StepNames =
    [
        TrackingNames.DocumentTypes,
        TrackingNames.ContextNames,
        TrackingNames.Contexts,
        TrackingNames.ContextSpecs,
        TrackingNames.Mappers,
        TrackingNames.Diagnostics,
        TrackingNames.ProjectionConstructors,
    ];

    [Fact]
    public void An_unrelated_edit_leaves_every_tracked_step_cached_or_unchanged()
    {
        var compilation = GeneratorHarness.Compile(Model, Unrelated);
        var driver = GeneratorHarness.CreateDriver().RunGenerators(compilation);
        var first = driver.GetRunResult().Results.Single();
        Assert.Equal(3, first.GeneratedSources.Length);

        var unrelatedTree = compilation.SyntaxTrees.Single(t => t.FilePath == "Input1.cs");
        var edited = CSharpSyntaxTree.ParseText(Unrelated.Replace("0.21m", "0.23m", StringComparison.Ordinal), GeneratorHarness.ParseOptions, path: "Input1.cs");
        var second = driver.RunGenerators(compilation.ReplaceSyntaxTree(unrelatedTree, edited)).GetRunResult().Results.Single();

        foreach (var name in StepNames)
        {
            Assert.True(second.TrackedSteps.ContainsKey(name), $"step {name} was not tracked");
            foreach (var step in second.TrackedSteps[name])
            {
                foreach (var (_, reason) in step.Outputs)
                {
                    Assert.True(reason is IncrementalStepRunReason.Cached or IncrementalStepRunReason.Unchanged, $"step {name} output was {reason}");
                }
            }
        }

        foreach (var output in second.TrackedOutputSteps.SelectMany(s => s.Value).SelectMany(s => s.Outputs))
        {
            Assert.True(output.Reason is IncrementalStepRunReason.Cached or IncrementalStepRunReason.Unchanged, $"an output step was {output.Reason}");
        }
    }

    [Fact]
    public void Editing_a_document_type_regenerates_its_mapper()
    {
        var compilation = GeneratorHarness.Compile(Model, Unrelated);
        var driver = GeneratorHarness.CreateDriver().RunGenerators(compilation);

        var modelTree = compilation.SyntaxTrees.Single(t => t.FilePath == "Input0.cs");
        var edited = CSharpSyntaxTree.ParseText(Model.Replace("public string Text", "public string Body", StringComparison.Ordinal), GeneratorHarness.ParseOptions, path: "Input0.cs");
        var second = driver.RunGenerators(compilation.ReplaceSyntaxTree(modelTree, edited)).GetRunResult().Results.Single();

        var reasons = second.TrackedSteps[TrackingNames.Mappers].SelectMany(s => s.Outputs).Select(o => o.Reason).ToList();
        Assert.Contains(IncrementalStepRunReason.Modified, reasons);
        Assert.Contains(second.GeneratedSources, s => s.SourceText.ToString().Contains("\"Body\"", StringComparison.Ordinal));
    }
}

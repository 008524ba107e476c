using System.Collections.Immutable;
using System.Text;
using BenchmarkDotNet.Attributes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace BLite.Generators.Benchmarks;

/// <summary>
/// The generator's cost in an IDE-sized project: 500 types in 50 files — 100 document types
/// reached from one context, and 400 ordinary classes deriving from a base class (the
/// <c>class X : Y</c> declarations every project is full of). <see cref="FirstRun"/> is a build;
/// <see cref="RunAfterAnEdit"/> is what a keystroke in a method body costs once the driver is warm.
/// </summary>
[MemoryDiagnoser]
public class GeneratorCostBenchmarks
{
    private const int Files = 50;
    private const int DocumentsPerFile = 2;
    private const int PlainClassesPerFile = 8;

    private CSharpCompilation _compilation = null!;
    private GeneratorDriver _warm = null!;
    private CSharpCompilation[] _edited = [];
    private int _edit;

    [GlobalSetup]
    public void Setup()
    {
        var trees = Enumerable.Range(0, Files).Select(i => CSharpSyntaxTree.ParseText(FileSource(i, body: "return 0;"), path: $"File{i}.cs")).ToList();
        trees.Add(CSharpSyntaxTree.ParseText(ContextSource(), path: "ShopContext.cs"));
        _compilation = CSharpCompilation.Create("GeneratorCost", trees, References(), new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        _warm = NewDriver().RunGenerators(_compilation);

        // Each edit changes one method body in one file, as typing does.
        _edited = Enumerable.Range(0, 16).Select(n =>
        {
            var file = n % Files;
            var old = _compilation.SyntaxTrees.First(t => t.FilePath == $"File{file}.cs");
            return _compilation.ReplaceSyntaxTree(old, CSharpSyntaxTree.ParseText(FileSource(file, body: $"return {n + 1};"), path: old.FilePath));
        }).ToArray();
    }

    [Benchmark]
    public GeneratorDriver FirstRun() => NewDriver().RunGenerators(_compilation);

    [Benchmark]
    public GeneratorDriver RunAfterAnEdit() => _warm.RunGenerators(_edited[_edit++ % _edited.Length]);

    private static GeneratorDriver NewDriver() =>
        CSharpGeneratorDriver.Create([new DocumentMapperGenerator().AsSourceGenerator()], driverOptions: new GeneratorDriverOptions(IncrementalGeneratorOutputKind.None));

    private static string FileSource(int file, string body)
    {
        var source = new StringBuilder("using System; using System.Collections.Generic; using BLite;\nnamespace Project;\n");
        for (var d = 0; d < DocumentsPerFile; d++)
        {
            source.Append($"public sealed class Document{file}_{d} {{ public int Id {{ get; set; }} public string Name {{ get; set; }} = \"\"; public List<string> Tags {{ get; set; }} = []; public decimal Total {{ get; set; }} public DateTime At {{ get; set; }} }}\n");
        }

        for (var c = 0; c < PlainClassesPerFile; c++)
        {
            source.Append($"public class Service{file}_{c} : ServiceBase {{ public int Compute() {{ {body} }} }}\n");
        }

        return source.ToString();
    }

    private static string ContextSource()
    {
        var source = new StringBuilder("using BLite;\nnamespace Project;\npublic abstract class ServiceBase { }\npublic partial class ShopContext(DocumentDbContextOptions options) : DocumentDbContext(options)\n{\n");
        for (var file = 0; file < Files; file++)
        {
            for (var d = 0; d < DocumentsPerFile; d++)
            {
                source.Append($"    public DocumentCollection<int, Document{file}_{d}> Documents{file}_{d} {{ get; set; }} = null!;\n");
            }
        }

        return source.Append("}\n").ToString();
    }

    private static ImmutableArray<MetadataReference> References()
    {
        var paths = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator).ToList();
        paths.Add(typeof(DocumentDbContext).Assembly.Location);
        paths.Add(typeof(ObjectId).Assembly.Location);
        return [.. paths.Distinct().Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))];
    }
}
